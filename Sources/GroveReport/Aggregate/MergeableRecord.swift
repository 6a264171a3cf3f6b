/// A per-key record of a partial state: two records of one key combine into one, in any order.
protocol MergeableRecord: Sendable {
    /// Folds in another record of the same key; `symbols` orders strings for tie-breaks.
    mutating func merge(_ other: Self, symbols: SymbolTable)
    /// The same record with its symbols mapped into another table.
    func translated(_ translation: SymbolTranslation) -> Self
}

/// Finds the position of a key among a store's records.
protocol RecordIndex: Sendable {
    associatedtype Key: Sendable
    init()
    func position(of key: Key) -> Int?
    mutating func insert(_ key: Key, at position: Int)
    /// Makes room for `count` keys in all, so that a merge grows the index once.
    mutating func reserve(_ count: Int)
    static func translated(_ key: Key, _ translation: SymbolTranslation) -> Key
}

/// Records keyed by one symbol: open addressing over the symbol's number, one 64-bit slot
/// (symbol + 1, position) per entry, so memory follows this store's keys, not the whole table's.
struct SymbolIndex: RecordIndex {
    private var slots: [UInt64] = Array(repeating: 0, count: 16)
    private var count = 0

    private static func start(_ key: Symbol, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(key.raw) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    func position(of key: Symbol) -> Int? {
        let mask = slots.count - 1
        var index = Self.start(key, mask)
        let tag = UInt64(key.raw) + 1
        while true {
            let slot = slots[index]
            if slot == 0 { return nil }
            if slot >> 32 == tag { return Int(slot & 0xFFFF_FFFF) }
            index = (index + 1) & mask
        }
    }

    mutating func insert(_ key: Symbol, at position: Int) {
        if (count + 1) * 2 > slots.count { grow(to: slots.count * 2) }
        place((UInt64(key.raw) + 1) << 32 | UInt64(position), in: &slots)
        count += 1
    }

    mutating func reserve(_ count: Int) {
        var size = slots.count
        while count * 2 > size { size *= 2 }
        if size > slots.count { grow(to: size) }
    }

    private mutating func grow(to size: Int) {
        var larger = [UInt64](repeating: 0, count: size)
        for slot in slots where slot != 0 { place(slot, in: &larger) }
        slots = larger
    }

    private func place(_ slot: UInt64, in table: inout [UInt64]) {
        let mask = table.count - 1
        var index = Self.start(Symbol(raw: UInt32(slot >> 32) - 1), mask)
        while table[index] != 0 { index = (index + 1) & mask }
        table[index] = slot
    }

    static func translated(_ key: Symbol, _ translation: SymbolTranslation) -> Symbol {
        translation[key]
    }
}

/// A composite key of symbols that can be moved into another symbol table.
protocol TranslatableKey: Hashable, Sendable {
    func translated(_ translation: SymbolTranslation) -> Self
}

/// Two symbols as one key, such as (campaign, install) or (campaign, variant).
struct SymbolPair: TranslatableKey {
    let first: Symbol
    let second: Symbol

    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(first.raw) << 32 | UInt64(second.raw))
    }

    func translated(_ translation: SymbolTranslation) -> SymbolPair {
        SymbolPair(first: translation[first], second: translation[second])
    }
}

/// Records keyed by a composite key, through a hash map.
struct HashedIndex<Key: TranslatableKey>: RecordIndex {
    private var positions: [Key: Int32] = [:]

    func position(of key: Key) -> Int? {
        positions[key].map(Int.init)
    }

    mutating func insert(_ key: Key, at position: Int) {
        positions[key] = Int32(position)
    }

    mutating func reserve(_ count: Int) {
        positions.reserveCapacity(count)
    }

    static func translated(_ key: Key, _ translation: SymbolTranslation) -> Key {
        key.translated(translation)
    }
}

/// The records of one kind in a partial state, by key, in arrival order.
struct KeyedRecords<Index: RecordIndex, Record: MergeableRecord>: Sendable {
    private var index = Index()
    private(set) var keys: [Index.Key] = []
    private(set) var records: [Record] = []

    var count: Int { records.count }

    subscript(_ key: Index.Key) -> Record? {
        index.position(of: key).map { records[$0] }
    }

    /// Inserts `make()` under a new key, or lets `update` change the record already there.
    mutating func upsert(_ key: Index.Key, _ make: () -> Record, _ update: (inout Record) -> Void) {
        if let position = index.position(of: key) {
            update(&records[position])
        } else {
            append(key, make())
        }
    }

    /// Adds a record under a key this store does not hold yet.
    mutating func append(_ key: Index.Key, _ record: Record) {
        index.insert(key, at: records.count)
        keys.append(key)
        records.append(record)
    }

    /// Applies `update` to the record of `key`, starting from `empty()` for a new key.
    mutating func modify(_ key: Index.Key, default empty: () -> Record, _ update: (inout Record) -> Void) {
        upsert(key, {
            var record = empty()
            update(&record)
            return record
        }, update)
    }

    /// The same keys with every record transformed, reusing this store's index: a join stage
    /// that turns each record of a key into the next stage's record of the same key.
    consuming func mapRecords<NewRecord>(_ transform: (Record) -> NewRecord) -> KeyedRecords<Index, NewRecord> {
        var mapped = KeyedRecords<Index, NewRecord>()
        mapped.index = index
        mapped.keys = keys
        mapped.records = records.map(transform)
        return mapped
    }

    /// Moves every record out, leaving the store empty: a join stage consumes its input.
    mutating func removeAll() -> (keys: [Index.Key], records: [Record]) {
        defer { self = KeyedRecords() }
        return (keys, records)
    }

    /// Room for `count` records in all: one allocation instead of doublings while a merge grows
    /// the store (a doubling briefly holds the old and the new array).
    mutating func reserve(_ count: Int) {
        index.reserve(count)
        keys.reserveCapacity(count)
        records.reserveCapacity(count)
    }

    /// Merges `other`, whose symbols `translation` maps into `symbols`, or are already its
    /// when there is no translation (then a merge into an empty store takes `other` as it is).
    mutating func merge(_ other: KeyedRecords, _ translation: SymbolTranslation? = nil, symbols: SymbolTable) {
        guard let translation else {
            if records.isEmpty {
                self = other
                return
            }
            reserve(count + other.count)
            for (key, record) in zip(other.keys, other.records) {
                upsert(key, { record }, { $0.merge(record, symbols: symbols) })
            }
            return
        }
        reserve(count + other.count)
        for (key, record) in zip(other.keys, other.records) {
            let translated = record.translated(translation)
            upsert(Index.translated(key, translation), { translated }, { $0.merge(translated, symbols: symbols) })
        }
    }
}

/// Records keyed by one symbol (a click, an open, an order, a campaign).
typealias SymbolKeyedRecords<Record: MergeableRecord> = KeyedRecords<SymbolIndex, Record>

/// Records keyed by two symbols (a campaign's install, a campaign's variant).
typealias PairKeyedRecords<Record: MergeableRecord> = KeyedRecords<HashedIndex<SymbolPair>, Record>
