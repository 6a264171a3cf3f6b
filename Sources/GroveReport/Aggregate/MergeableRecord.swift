/// A per-key record of a partial state: two records of one key combine into one, in any order.
protocol MergeableRecord: Sendable {
    /// Folds in another record of the same key; `symbols` orders strings for tie-breaks.
    mutating func merge(_ other: Self, symbols: SymbolTable)
    /// The same record with its symbols mapped into another table.
    func translated(_ translation: SymbolTranslation) -> Self
}

/// Records keyed by one symbol, stored densely: an index per symbol and the records in arrival order.
///
/// No hashing on the hot path: a symbol is already a dense number.
struct SymbolKeyedRecords<Record: MergeableRecord>: Sendable {
    private var indexBySymbol: [Int32] = []
    private(set) var keys: [Symbol] = []
    private(set) var records: [Record] = []

    var count: Int { records.count }

    subscript(_ key: Symbol) -> Record? {
        let raw = Int(key.raw)
        guard raw < indexBySymbol.count, indexBySymbol[raw] >= 0 else { return nil }
        return records[Int(indexBySymbol[raw])]
    }

    /// Inserts `make()` under a new key, or lets `update` change the record already there.
    mutating func upsert(_ key: Symbol, _ make: () -> Record, _ update: (inout Record) -> Void) {
        let raw = Int(key.raw)
        if raw >= indexBySymbol.count {
            indexBySymbol.append(contentsOf: repeatElement(-1, count: max(raw + 1 - indexBySymbol.count, indexBySymbol.count / 2)))
        }
        let index = Int(indexBySymbol[raw])
        if index >= 0 {
            update(&records[index])
        } else {
            indexBySymbol[raw] = Int32(records.count)
            keys.append(key)
            records.append(make())
        }
    }

    /// Applies `update` to the record of `key`, starting from `empty()` for a new key.
    mutating func modify(_ key: Symbol, default empty: () -> Record, _ update: (inout Record) -> Void) {
        upsert(key, {
            var record = empty()
            update(&record)
            return record
        }, update)
    }

    /// Merges `other`, whose symbols `translation` maps into `symbols`.
    mutating func merge(_ other: SymbolKeyedRecords, _ translation: SymbolTranslation, symbols: SymbolTable) {
        for (key, record) in zip(other.keys, other.records) {
            let translated = record.translated(translation)
            upsert(translation[key], { translated }, { $0.merge(translated, symbols: symbols) })
        }
    }
}

/// Two symbols as one key, such as (campaign, install).
struct SymbolPair: Hashable, Sendable {
    let first: Symbol
    let second: Symbol

    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(first.raw) << 32 | UInt64(second.raw))
    }

    func translated(_ translation: SymbolTranslation) -> SymbolPair {
        SymbolPair(first: translation[first], second: translation[second])
    }
}

/// Records keyed by a pair of symbols.
struct PairKeyedRecords<Record: MergeableRecord>: Sendable {
    private var indexByKey: [SymbolPair: Int32] = [:]
    private(set) var keys: [SymbolPair] = []
    private(set) var records: [Record] = []

    var count: Int { records.count }

    /// Inserts `make()` under a new key, or lets `update` change the record already there.
    mutating func upsert(_ key: SymbolPair, _ make: () -> Record, _ update: (inout Record) -> Void) {
        if let index = indexByKey[key] {
            update(&records[Int(index)])
        } else {
            indexByKey[key] = Int32(records.count)
            keys.append(key)
            records.append(make())
        }
    }

    /// Applies `update` to the record of `key`, starting from `empty()` for a new key.
    mutating func modify(_ key: SymbolPair, default empty: () -> Record, _ update: (inout Record) -> Void) {
        upsert(key, {
            var record = empty()
            update(&record)
            return record
        }, update)
    }

    /// Merges `other`, whose symbols `translation` maps into `symbols`.
    mutating func merge(_ other: PairKeyedRecords, _ translation: SymbolTranslation, symbols: SymbolTable) {
        for (key, record) in zip(other.keys, other.records) {
            let translated = record.translated(translation)
            upsert(key.translated(translation), { translated }, { $0.merge(translated, symbols: symbols) })
        }
    }
}
