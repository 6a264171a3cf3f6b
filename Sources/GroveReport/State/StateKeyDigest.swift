/// The keyed digest that the state indexes record keys and links by: SipHash-2-4 under a key only
/// the state knows, cut to 48 bits.
///
/// Ids come from client apps, so whoever sends them chooses them. With a bare checksum (the
/// CRC-32 of schema 2) a sender could make a million ids share one digest, and every later
/// night that touched one of them read them all; under a secret key no sender can aim at a
/// digest, so the stored keys that share a digest with a night's key are only the rare chance
/// ones. A reader by digest still gets every record under it, and an extra record is harmless to
/// a merge (it is the same, unchanged, on both sides). 48 bits keep SQLite's integers at six
/// bytes while chance collisions stay rare (about 0.004 pairs among 1.5 million keys).
///
/// The function is the written-out `SipHash` with the reference's round counts, which the tests
/// hold to the reference vector and to OpenSSL's: a night takes a few hundred thousand digests
/// of 10 to 40 bytes, where OpenSSL's `EVP_MAC` calls (init, update, final) cost more than the
/// hashing (about a tenth of a night's state work, measured).
struct StateKeyDigest: Sendable {
    private let key: SipHash.Key

    /// A digest keyed by 16 bytes derived from the state's salt (`meta.email_salt`), so a state
    /// keeps one secret and every digest of one state agrees across runs.
    init(salt: [UInt8]) {
        var derivation = SHA256Digest()
        derivation.update(Array("grove-report state key digest\u{0}".utf8))
        derivation.update(salt)
        self.init(key: Array(derivation.bytes().prefix(16)))
    }

    /// SipHash under a 16-byte key, read as two little-endian words (as the reference does).
    init(key: [UInt8]) {
        precondition(key.count == 16, "SipHash takes a 16-byte key")
        let word = { (offset: Int) in key[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        self.key = SipHash.Key(k0: word(0), k1: word(8))
    }

    /// The digest of `bytes`, a signed 48-bit integer.
    func of(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64 {
        Int64(bitPattern: sipHash(bytes)) >> 16
    }

    func of(_ bytes: [UInt8]) -> Int64 {
        bytes.withUnsafeBufferPointer(of)
    }

    /// SipHash-2-4 of `bytes`.
    func sipHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        SipHash.hash(bytes, key: key, compression: 2, finalization: 4)
    }

    /// The link from a click to the opens whose original names it.
    func click(_ clickID: some Collection<UInt8>) -> Int64 {
        of(prefix: Self.clickPrefix, clickID)
    }

    /// The link from a unit (`install:<id>` or `customer:<id>`) to the install records that
    /// name it (and, in a state written before schema 7, to its orders too).
    func unit(_ kind: DecisionUnit, _ id: some Collection<UInt8>) -> Int64 {
        of(prefix: kind == .install ? Self.installPrefix : Self.customerPrefix, id)
    }

    /// The link from a unit to the orders that name it (schema 7 on): apart from its install
    /// records, so an install record can ask for its own unit's orders without every other
    /// campaign's record of the install.
    func orders(_ kind: DecisionUnit, _ id: some Collection<UInt8>) -> Int64 {
        of(prefix: kind == .install ? Self.installOrdersPrefix : Self.customerOrdersPrefix, id)
    }

    private static let clickPrefix = Array("click\u{0}".utf8)
    private static let installPrefix = Array("unit\u{0}\(DecisionUnit.install.word):".utf8)
    private static let customerPrefix = Array("unit\u{0}\(DecisionUnit.customer.word):".utf8)
    private static let installOrdersPrefix = Array("orders\u{0}\(DecisionUnit.install.word):".utf8)
    private static let customerOrdersPrefix = Array("orders\u{0}\(DecisionUnit.customer.word):".utf8)

    /// The digest of `prefix` followed by `bytes`, joined on the stack.
    private func of(prefix: [UInt8], _ bytes: some Collection<UInt8>) -> Int64 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.count + bytes.count) { buffer in
            let middle = buffer.initialize(fromContentsOf: prefix)
            let end = buffer[middle...].initialize(fromContentsOf: bytes)
            return of(UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }
}
