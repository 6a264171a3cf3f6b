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

    /// Whether `bytes` hold an email-like token, by the rule that masks names in reports.
    static func holdsEmailLikeToken(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { EmailMask.masked($0) != nil }
    }
}
