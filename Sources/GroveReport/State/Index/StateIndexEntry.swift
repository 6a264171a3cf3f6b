/// One entry of a state index (`StateIndex`): a 48-bit key digest and what it leads to, a record
/// row's id (the key index) or a record's digest (the links).
struct StateIndexEntry: Comparable, Hashable, RadixSortable {
    var hash: Int64
    var target: Int64

    /// Sorted by radix on the digest (`radixSort`): a night's key and link runs, where the
    /// comparison sort was 3 % of a backfill night.
    var radixKey: UInt64 { hash.radixKey }

    static func < (lhs: StateIndexEntry, rhs: StateIndexEntry) -> Bool { (lhs.hash, lhs.target) < (rhs.hash, rhs.target) }

    /// A chunk as stored, frame of reference: a 20-byte header (the count as 2 bytes, the widths
    /// of a digest and of a target as a byte each, the least digest and the least target as 8
    /// bytes each, all little-endian), then each entry as its digest and target less those
    /// least values, in that many little-endian bytes.
    ///
    /// A chunk's 160 sorted digests of a run of a million span about 2³⁶, five bytes instead of
    /// six; a night's key run has row addresses within a few hundred of each other, one or two
    /// bytes instead of six
    /// (schema 5 stored both as six bytes). Fixed widths keep the entries binary-searchable
    /// where they lie: a night asks for most chunks of every run, and decoding each whole (as
    /// varint steps would need) cost more than the lookups.
    static func encode(_ entries: some Collection<StateIndexEntry>) -> [UInt8] {
        var least = StateIndexEntry(hash: .max, target: .max)
        var most = StateIndexEntry(hash: .min, target: .min)
        for entry in entries {
            least = StateIndexEntry(hash: min(least.hash, entry.hash), target: min(least.target, entry.target))
            most = StateIndexEntry(hash: max(most.hash, entry.hash), target: max(most.target, entry.target))
        }
        if entries.isEmpty { (least, most) = (StateIndexEntry(hash: 0, target: 0), StateIndexEntry(hash: 0, target: 0)) }
        let hashWidth = Chunk.width(UInt64(bitPattern: most.hash &- least.hash))
        let targetWidth = Chunk.width(UInt64(bitPattern: most.target &- least.target))
        let count = Chunk.headerSize + entries.count * (hashWidth + targetWidth)
        // Each field is stored as a whole little-endian word at its offset, the next field
        // overwriting the word's spare high bytes: a call to append a few bytes cost more than
        // the bytes (a backfill night writes millions of entries in its index merge).
        let bytes = [UInt8](unsafeUninitializedCapacity: count + 8) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            func store(_ value: UInt64, width: Int) {
                raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += width
            }
            store(UInt64(entries.count), width: 2)
            store(UInt64(hashWidth) | UInt64(targetWidth) << 8, width: 2)
            store(UInt64(bitPattern: least.hash), width: 8)
            store(UInt64(bitPattern: least.target), width: 8)
            for entry in entries {
                store(UInt64(bitPattern: entry.hash &- least.hash), width: hashWidth)
                store(UInt64(bitPattern: entry.target &- least.target), width: targetWidth)
            }
            initialized = offset
        }
        return bytes
    }

    /// A stored chunk, read in place: a lookup binary-searches its digests without decoding the
    /// chunk's other entries.
    struct Chunk {
        static let headerSize = 20

        private let bytes: [UInt8]
        let count: Int
        private let hashWidth: Int
        private let targetWidth: Int
        private let baseHash: Int64
        private let baseTarget: Int64

        /// nil when the bytes are not exactly the entries their header counts (damage).
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= Self.headerSize, bytes[2] <= 8, bytes[3] <= 8 else { return nil }
            count = Int(Self.load(bytes, at: 0, width: 2))
            hashWidth = Int(bytes[2])
            targetWidth = Int(bytes[3])
            guard bytes.count == Self.headerSize + count * (hashWidth + targetWidth) else { return nil }
            baseHash = Int64(bitPattern: Self.load(bytes, at: 4, width: 8))
            baseTarget = Int64(bitPattern: Self.load(bytes, at: 12, width: 8))
            self.bytes = bytes
        }

        subscript(position: Int) -> StateIndexEntry {
            let offset = Self.headerSize + position * (hashWidth + targetWidth)
            return StateIndexEntry(
                hash: baseHash &+ Int64(bitPattern: Self.load(bytes, at: offset, width: hashWidth)),
                target: baseTarget &+ Int64(bitPattern: Self.load(bytes, at: offset + hashWidth, width: targetWidth)))
        }

        /// Appends every entry, in order: one pass over the bytes (a merge reads each entry of
        /// its runs, where an entry a call cost a hundred instructions).
        func appendAll(to entries: inout [StateIndexEntry]) {
            let stride = hashWidth + targetWidth
            let (hashMask, targetMask) = (Self.mask(hashWidth), Self.mask(targetWidth))
            entries.reserveCapacity(entries.count + count)
            bytes.withUnsafeBytes { buffer in
                for position in 0..<count {
                    let offset = Self.headerSize + position * stride
                    // A word a field where eight bytes are there; the chunk's last few entries
                    // as a lookup reads them.
                    guard offset + hashWidth + 8 <= buffer.count else {
                        entries.append(self[position])
                        continue
                    }
                    let hash = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) & hashMask
                    let target = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + hashWidth, as: UInt64.self)) & targetMask
                    entries.append(StateIndexEntry(hash: baseHash &+ Int64(bitPattern: hash), target: baseTarget &+ Int64(bitPattern: target)))
                }
            }
        }

        /// The mask of a value of `width` bytes.
        private static func mask(_ width: Int) -> UInt64 { width == 8 ? .max : (1 << (8 * UInt64(width))) - 1 }

        private func hash(at position: Int) -> Int64 {
            baseHash &+ Int64(bitPattern: Self.load(bytes, at: Self.headerSize + position * (hashWidth + targetWidth), width: hashWidth))
        }

        /// Appends the entries under `hash` to `found`, found by a binary search over the stored
        /// digests.
        func appendEntries(of hash: Int64, to found: inout [StateIndexEntry]) {
            var position = (0..<count).firstIndex(past: { self.hash(at: $0) < hash })
            while position < count, self.hash(at: position) == hash {
                found.append(self[position])
                position += 1
            }
        }

        /// The bytes a value below 2⁶⁴ needs.
        static func width(_ value: UInt64) -> Int { (64 - value.leadingZeroBitCount + 7) / 8 }

        /// The `width` little-endian bytes at `offset`: one eight-byte load, masked, where eight
        /// bytes are there (a lookup's binary search loads a digest at every step).
        private static func load(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
            bytes.withUnsafeBytes { buffer in
                if offset + 8 <= buffer.count {
                    return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) & mask(width)
                }
                var value: UInt64 = 0
                for byte in 0..<width { value |= UInt64(buffer[offset + byte]) << (8 * UInt64(byte)) }
                return value
            }
        }
    }
}
