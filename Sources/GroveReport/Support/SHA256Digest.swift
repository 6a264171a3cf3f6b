import CCrypto

/// SHA-256 through OpenSSL's libcrypto, fed incrementally: identifies inputs in the state's
/// ledger and the files of a run in `summary.json`'s `outputs`.
struct SHA256Digest: ~Copyable {
    private let context: OpaquePointer

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Makes this hasher go on from where `prefix` is, in place: the prefix's bytes are hashed
    /// once for all the texts that follow them (a fresh hasher asks OpenSSL for the algorithm).
    mutating func restart(from prefix: borrowing SHA256Digest) {
        EVP_MD_CTX_copy_ex(context, prefix.context)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32 bytes of the digest; the hasher is spent.
    consuming func bytes() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    /// The digest as 64 lower-case hex digits; the hasher is spent.
    consuming func hexDigest() -> String {
        HexText.encode(bytes())
    }

    /// Appends the digest's 64 lower-case hex digits to `text`; the hasher is left finished,
    /// to be `restart`ed.
    mutating func appendHexDigest(to text: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { digest in
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, digest.baseAddress, &length)
            HexText.append(digest.prefix(Int(length)), to: &text)
        }
    }

    /// The SHA-256 of `bytes` in hex.
    static func hex(_ bytes: [UInt8]) -> String {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.hexDigest()
    }

    /// `count` bytes from OpenSSL's cryptographically secure generator (salts).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        if status != 1 { bytes = (0..<count).map { _ in UInt8.random(in: 0...255) } }
        return bytes
    }
}

/// Lower-case hexadecimal text of bytes.
enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text: [UInt8] = []
        append(bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    static func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to text: inout [UInt8]) {
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
    }
}
