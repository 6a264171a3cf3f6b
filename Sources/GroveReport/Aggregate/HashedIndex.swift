/// A composite key of symbols that can be moved into another symbol table.
protocol TranslatableKey: Equatable, Sendable {
    /// The key's bits through `mixed`: the index hashes with this rather than Swift's `Hasher`,
    /// whose seeded SipHash rounds cost more than the whole lookup otherwise does.
    var indexHash: UInt64 { get }
    func translated(_ translation: SymbolTranslation) -> Self
}

extension TranslatableKey {
    /// `Hashing.mix`: the index's tag then owes nothing to `partitionHash`, a bare product whose
    /// bits all keys of one partition share in part.
    static func mixed(_ bits: UInt64) -> UInt64 {
        Hashing.mix(bits)
    }
}

/// Records keyed by a composite key: a slot holds 32 bits of the key's hash as its tag, and a tag
/// match is confirmed on the store's own copy of the key, so keys of any size cost one slot.
struct HashedIndex<Key: TranslatableKey>: RecordIndex {
    private var table = SlotTable()

    private static func tag(_ key: Key) -> UInt32 {
        UInt32(truncatingIfNeeded: key.indexHash >> 32)
    }

    func position(of key: Key, in keys: GrowingArray<Key>) -> Int? {
        table.position(Self.tag(key)) { keys[$0] == key }
    }

    func prefetch(_ key: Key) {
        table.prefetch(Self.tag(key))
    }

    mutating func insert(_ key: Key, at position: Int) {
        table.insert(Self.tag(key), at: position)
    }

    mutating func reserve(_ count: Int) {
        table.reserve(count)
    }

    static func translated(_ key: Key, _ translation: SymbolTranslation) -> Key {
        key.translated(translation)
    }
}
