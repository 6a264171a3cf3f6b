/// A string as its length and its first and last eight bytes (zero-padded): for strings of at
/// most `longest` bytes, equal exactly when the bytes are, and compared without a call to
/// `memcmp`. The field-name table, the name cache and the unknown-key fingerprint key on it.
struct ShortKey: Equatable, Sendable {
    /// The longest string a key tells apart exactly.
    static let longest = 16
    /// No string's key (an empty slot): no string has a negative length.
    static let none = ShortKey(count: -1, head: 0, tail: 0)

    private(set) var count: Int
    private(set) var head: UInt64
    private(set) var tail: UInt64

    private init(count: Int, head: UInt64, tail: UInt64) {
        (self.count, self.head, self.tail) = (count, head, tail)
    }

    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.init(bytes, head: ByteWord.littleEndian(bytes))
    }

    /// The key of `bytes`, whose first word (`ByteWord.littleEndian`) is `head`.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, head: UInt64) {
        (count, self.head, tail) = (bytes.count, head, Self.tailWord(bytes))
    }

    /// Whether this is the key of `bytes`, whose first word is `head`: the last word is read only
    /// when the length and the first word already match.
    @inline(__always)
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, head: UInt64) -> Bool {
        count == bytes.count && self.head == head && tail == Self.tailWord(bytes)
    }

    /// The last eight bytes of a string longer than eight, else 0.
    @inline(__always)
    private static func tailWord(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        bytes.count > 8 ? ByteWord.littleEndian(UnsafeBufferPointer(rebasing: bytes[(bytes.count - 8)...])) : 0
    }
}
