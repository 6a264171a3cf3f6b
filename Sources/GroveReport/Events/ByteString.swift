/// An immutable string of bytes that compares, hashes and sorts byte-wise.
///
/// Swift's `String` compares by Unicode canonical equivalence, so a precomposed and a decomposed
/// "é" would be one dictionary key; the contract (docs/) compares ids, emails and campaign names byte-wise,
/// so every key of the pipeline is a `ByteString`.
struct ByteString: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The UTF-8 bytes (validated by the JSON reader before they get here).
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.bytes = Array(buffer)
    }

    static func < (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    var isEmpty: Bool { bytes.isEmpty }

    var count: Int { bytes.count }

    var description: String { String(decoding: bytes, as: UTF8.self) }

    /// A byte string with `other` appended: builds composite keys such as `install:<id>`.
    func appending(_ other: ByteString) -> ByteString {
        ByteString(bytes + other.bytes)
    }

    /// FNV-1a over the bytes: a documented, seed-free hash, so a key lands in the same partition
    /// in every process and on every machine (Swift's `Hasher` is seeded per process).
    var stableHash: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
