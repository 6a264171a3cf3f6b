/// Keeps email addresses out of the state file: a binding's normalized email, and any other
/// text from the logs that holds an email-like token, is stored as a SHA-256 salted with the
/// state's own random salt. Equal texts still seal equal, so joins and retry counts are kept.
struct TextSealing {
    let salt: [UInt8]
    private let hashers: SaltedHashers

    init(salt: [UInt8]) {
        self.salt = salt
        hashers = SaltedHashers(salt: salt)
    }

    /// The salt hashed once, and the hasher each text goes on from there with. A fresh hasher a
    /// text asked OpenSSL for the algorithm and a context each time: most of a night's sealing.
    /// One thread at a time (a night seals on one).
    private final class SaltedHashers {
        private let salted: SHA256Digest
        private var scratch: SHA256Digest

        init(salt: [UInt8]) {
            var salted = SHA256Digest()
            salted.update(salt)
            self.salted = salted
            scratch = SHA256Digest()
        }

        /// `sha256:` and the hex digits of the SHA-256 of the salt and then `bytes`.
        func sealed(_ bytes: [UInt8]) -> [UInt8] {
            scratch.restart(from: salted)
            scratch.update(bytes)
            var text = TextSealing.prefix
            text.reserveCapacity(TextSealing.sealedCount)
            scratch.appendHexDigest(to: &text)
            return text
        }
    }

    private static let prefix = Array("sha256:".utf8)

    /// The length of a sealed text: the prefix and 64 hex digits.
    private static let sealedCount = prefix.count + 64

    /// The stored form of `text`; `always` for values that are emails by definition. A sealed
    /// text holds no `@`, so sealing what was read back from the state leaves it as it is.
    func seal(_ text: ByteString, always: Bool) -> ByteString {
        seal(text.bytes, always: always).map(ByteString.init) ?? text
    }

    /// The sealed form of `bytes`, nil when they stay as they are.
    private func seal(_ bytes: some Collection<UInt8>, always: Bool) -> [UInt8]? {
        guard bytes.contains(UInt8(ascii: "@")) else { return nil }
        let bytes = Array(bytes)
        guard always || Self.holdsEmailLikeToken(bytes) else { return nil }
        return hashers.sealed(bytes)
    }

    /// A night's partial state as the state stores it, sealed in place: every text with an
    /// email-like token, then every binding's emails whatever they hold. Only the symbols
    /// change; the records move through the translation `merge` uses, never through text.
    func sealed(_ state: consuming PartialState) -> PartialState {
        var symbols = take(&state.symbols, SymbolTable())
        var sealed = PartialState()
        if let translation = symbols.rewriting(stringsHolding: UInt8(ascii: "@"), { seal($0, always: false) }) {
            // Moved in and back out, so that interning the emails below copies no table.
            sealed.symbols = take(&symbols, SymbolTable())
            sealed.mergeStores(of: &state, through: translation)
            symbols = take(&sealed.symbols, SymbolTable())
        } else {
            sealed.attribution = take(&state.attribution, AttributionState())
            sealed.exposure = take(&state.exposure, ExposureState())
            sealed.joins = take(&state.joins, JoinState())
        }
        var emails: [Symbol: Symbol] = [:]
        func email(_ symbol: Symbol) -> Symbol {
            if let known = emails[symbol] { return known }
            let stored = seal(symbols.bytes(symbol), always: true).map { symbols.intern($0) } ?? symbol
            emails[symbol] = stored
            return stored
        }
        sealed.attribution.bindings.updateRecords { binding in
            binding.winner.normalizedEmail = email(binding.winner.normalizedEmail)
            binding.emails = binding.emails.map(email)
        }
        sealed.symbols = symbols
        sealed.accounting = state.accounting
        sealed.rejects = state.rejects
        return sealed
    }

    /// The 32 digest bytes of a sealed text (`sha256:` and 64 lower-case hex digits), nil for
    /// any other text: rows keep the digest, not its hex.
    static func digestBytes(ofSealed text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // The length first: it turns away almost every text without touching `prefix`.
        guard text.count == sealedCount, text.starts(with: prefix) else { return nil }
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        return StateTextForm.packLowerHex(UnsafeBufferPointer(rebasing: text[prefix.count...]), to: &digest) ? digest : nil
    }

    /// The sealed text of 32 digest bytes.
    static func sealedText(digestBytes: [UInt8]) -> [UInt8] {
        var text = prefix
        text.reserveCapacity(sealedCount)
        HexText.append(digestBytes, to: &text)
        return text
    }

    /// Whether `bytes` hold an email-like token, by the rule that masks names in reports.
    static func holdsEmailLikeToken(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { EmailMask.masked($0) != nil }
    }
}
