/// One entry of a state index (`StateIndex`): a 48-bit key digest and what it leads to, a record
/// row's id (the key index) or a record's digest (the links).
struct StateIndexEntry: Comparable, Hashable {
    var hash: Int64
    var target: Int64

    static func < (lhs: StateIndexEntry, rhs: StateIndexEntry) -> Bool { (lhs.hash, lhs.target) < (rhs.hash, rhs.target) }

    /// A chunk as stored: the number of entries, then each entry as varints of its digest and
    /// target minus the previous entry's (0 before the first): the digest's step as unsigned
    /// (entries are sorted by digest, so it is small and never negative but at the first), the
    /// target's zigzag (signed).
    ///
    /// A run of a million random 48-bit digests steps about 2²⁸ between neighbours, four or five
    /// bytes instead of six; a night's key run steps its row ids by one, one byte instead of six
    /// (schema 5 stored both as six fixed bytes). Any order still round-trips, at more bytes.
    static func encode(_ entries: some Collection<StateIndexEntry>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + entries.count * 8)
        Varint.append(UInt64(entries.count), to: &bytes)
        var previous = StateIndexEntry(hash: 0, target: 0)
        for entry in entries {
            Varint.append(UInt64(bitPattern: entry.hash &- previous.hash), to: &bytes)
            Varint.append(Varint.zigzag(entry.target &- previous.target), to: &bytes)
            previous = entry
        }
        return bytes
    }

    /// A stored chunk, decoded.
    struct Chunk {
        let entries: [StateIndexEntry]

        /// nil when the bytes are not exactly the entries they count (damage).
        init?(_ bytes: [UInt8]) {
            guard let entries = bytes.withUnsafeBufferPointer(Self.decode) else { return nil }
            self.entries = entries
        }

        var count: Int { entries.count }

        subscript(position: Int) -> StateIndexEntry { entries[position] }

        /// The entries under `hash`, found by a binary search over the digests.
        func entries(of hash: Int64) -> ArraySlice<StateIndexEntry> {
            let first = entries.firstIndex(past: { $0.hash < hash })
            return entries[first...].prefix { $0.hash == hash }
        }

        private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [StateIndexEntry]? {
            var position = 0
            // An entry takes two bytes at least: a count past that is damage, not a size to reserve.
            guard let count = Varint.read(bytes, at: &position), count <= UInt64(bytes.count / 2) else { return nil }
            var entries: [StateIndexEntry] = []
            entries.reserveCapacity(Int(count))
            var previous = StateIndexEntry(hash: 0, target: 0)
            for _ in 0..<count {
                guard let hash = Varint.read(bytes, at: &position), let target = Varint.read(bytes, at: &position) else { return nil }
                previous = StateIndexEntry(
                    hash: previous.hash &+ Int64(bitPattern: hash), target: previous.target &+ Varint.unzigzag(target))
                entries.append(previous)
            }
            return position == bytes.count ? entries : nil
        }
    }
}
