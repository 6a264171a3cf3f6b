/// Keeps email addresses out of the state file: a binding's normalized email, and any other
/// text from the logs that holds an email-like token, is stored as a SHA-256 salted with the
/// state's own random salt. Equal texts still seal equal, so joins and retry counts are kept.
struct TextSealing {
    let salt: [UInt8]

    /// The stored form of `text`; `always` for values that are emails by definition. A sealed
    /// text holds no `@`, so sealing what was read back from the state leaves it as it is.
    func seal(_ text: ByteString, always: Bool) -> ByteString {
        let needed = always ? text.bytes.contains(UInt8(ascii: "@")) : Self.holdsEmailLikeToken(text.bytes)
        guard needed else { return text }
        var digest = SHA256Digest()
        digest.update(salt)
        digest.update(text.bytes)
        return ByteString("sha256:" + digest.hexDigest())
    }

    /// Whether `bytes` hold a match of `[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`.
    static func holdsEmailLikeToken(_ bytes: [UInt8]) -> Bool {
        func isLabel(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == UInt8(ascii: "-")
        }
        func isLocal(_ byte: UInt8) -> Bool { isLabel(byte) || "._%+".utf8.contains(byte) }
        for at in bytes.indices where bytes[at] == UInt8(ascii: "@") {
            guard at > 0, isLocal(bytes[at - 1]) else { continue }
            var index = at + 1
            var labels = 0
            while index < bytes.count, isLabel(bytes[index]) {
                while index < bytes.count, isLabel(bytes[index]) { index += 1 }
                labels += 1
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."), isLabel(bytes[index + 1]) else { break }
                index += 1
            }
            if labels >= 2 { return true }
        }
        return false
    }
}
