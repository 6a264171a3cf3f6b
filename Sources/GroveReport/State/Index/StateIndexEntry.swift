/// One entry of a state index (`StateIndex`): a 48-bit key digest and what it leads to, a record
/// row's id (the key index) or a record's digest (the links).
struct StateIndexEntry: Comparable, Hashable {
    var hash: Int64
    var target: Int64

    static func < (lhs: StateIndexEntry, rhs: StateIndexEntry) -> Bool { (lhs.hash, lhs.target) < (rhs.hash, rhs.target) }

    /// Bytes an entry takes in a stored chunk: the two values as 6-byte little-endian 48-bit
    /// integers (digests are 48 bits, `StateKeyDigest`; row ids stay far below 2⁴⁷).
    static let storedSize = 12

    /// Entries back to back, as a chunk stores them.
    static func encode(_ entries: some Collection<StateIndexEntry>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: entries.count * storedSize)
        bytes.withUnsafeMutableBytes { raw in
            for (offset, entry) in zip(stride(from: 0, to: raw.count, by: storedSize), entries) {
                store(entry.hash, at: offset, in: raw)
                store(entry.target, at: offset + 6, in: raw)
            }
        }
        return bytes
    }

    /// A stored chunk read in place: a lookup binary-searches its digests without decoding the
    /// chunk's other entries.
    struct Chunk {
        let bytes: [UInt8]

        /// nil when its length is no whole number of entries (damage).
        init?(_ bytes: [UInt8]) {
            guard bytes.count % StateIndexEntry.storedSize == 0 else { return nil }
            self.bytes = bytes
        }

        var count: Int { bytes.count / StateIndexEntry.storedSize }

        subscript(position: Int) -> StateIndexEntry {
            bytes.withUnsafeBytes { raw in
                let offset = position * StateIndexEntry.storedSize
                return StateIndexEntry(hash: load(at: offset, in: raw), target: load(at: offset + 6, in: raw))
            }
        }

        /// The entries under `hash`, found by a binary search over the stored digests.
        func entries(of hash: Int64) -> [StateIndexEntry] {
            let first = (0..<count).firstIndex(past: { self[$0].hash < hash })
            return (first..<count).lazy.map { self[$0] }.prefix { $0.hash == hash }.map { $0 }
        }
    }

    private static func store(_ value: Int64, at offset: Int, in raw: UnsafeMutableRawBufferPointer) {
        let bits = UInt64(bitPattern: value)
        for byte in 0..<6 { raw[offset + byte] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(byte))) }
    }

    /// Six bytes, sign-extended from bit 47.
    private static func load(at offset: Int, in raw: UnsafeRawBufferPointer) -> Int64 {
        var bits: UInt64 = 0
        for byte in 0..<6 { bits |= UInt64(raw[offset + byte]) << (8 * UInt64(byte)) }
        return Int64(bitPattern: bits << 16) >> 16
    }
}
