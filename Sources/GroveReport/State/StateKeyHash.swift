import CZlib

/// The 32-bit digest (zlib's CRC-32) that the state indexes record keys and links by. Small
/// index entries keep the one B-tree that every night writes at random places small. Texts may
/// share a digest: whoever reads by digest gets every record under it, and an extra record is
/// harmless to a merge (it is the same, unchanged, on both sides).
enum StateKeyHash {
    static func of(_ bytes: some Collection<UInt8>) -> Int64 {
        let crc = bytes.withContiguousStorageIfAvailable { buffer in
            crc32(0, buffer.baseAddress, UInt32(buffer.count))
        } ?? Array(bytes).withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
        // Stored signed, SQLite keeps it in four bytes.
        return Int64(Int32(truncatingIfNeeded: crc))
    }

    /// The link from a click to the opens whose original names it.
    static func click(_ clickID: ByteString) -> Int64 {
        of([UInt8]("click\u{0}".utf8) + clickID.bytes)
    }

    /// The link from a unit (`install:<id>` or `customer:<id>`) to the install records and
    /// orders that name it.
    static func unit(_ unit: ByteString) -> Int64 {
        of([UInt8]("unit\u{0}".utf8) + unit.bytes)
    }

    /// A record (by its key's hash) that belongs to what a link names (by its hash).
    struct Link: Hashable, Comparable {
        var name: Int64
        var record: Int64

        static func < (lhs: Link, rhs: Link) -> Bool { (lhs.name, lhs.record) < (rhs.name, rhs.record) }
    }
}
