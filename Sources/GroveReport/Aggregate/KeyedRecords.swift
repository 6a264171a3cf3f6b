/// Finds the position of a key among a store's records.
protocol RecordIndex: Sendable {
    associatedtype Key: Equatable & Sendable
    init()
    /// The position of `key` in `keys`, the store's keys in arrival order: an index that keeps
    /// only part of a key's bits compares the key itself there.
    func position(of key: Key, in keys: GrowingArray<Key>) -> Int?
    /// Starts reading the memory a lookup of `key` reads first (a cache miss in a large index).
    func prefetch(_ key: Key)
    mutating func insert(_ key: Key, at position: Int)
    /// Makes room for `count` keys in all, so that a merge grows the index once.
    mutating func reserve(_ count: Int)
    static func translated(_ key: Key, _ translation: SymbolTranslation) -> Key
}

/// The records of one kind in a partial state, by key, in arrival order.
struct KeyedRecords<Index: RecordIndex, Record: MergeableRecord>: Sendable {
    private var index = Index()
    private(set) var keys = GrowingArray<Index.Key>()
    private(set) var records = GrowingArray<Record>()

    var count: Int { records.count }

    subscript(_ key: Index.Key) -> Record? {
        index.position(of: key, in: keys).map { records[$0] }
    }

    /// Starts reading the index entry of `key`, ahead of an `upsert` a little later.
    func prefetch(_ key: Index.Key) {
        index.prefetch(key)
    }

    /// Inserts `make()` under a new key, or lets `update` change the record already there.
    mutating func upsert(_ key: Index.Key, _ make: () -> Record, _ update: (inout Record) -> Void) {
        if let position = index.position(of: key, in: keys) {
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
        // Consumed while mapped: the old records' pages go as the new ones fill, never both whole.
        mapped.records.reserveCapacity(records.count)
        take(&records, GrowingArray()).forEachConsumed { mapped.records.append(transform($0)) }
        return mapped
    }

    /// Changes every record in place, its key and index kept: where a new array of the records
    /// would be new pages to fault in, and the old ones to give back (sealing a night's texts).
    mutating func updateRecords(_ update: (inout Record) -> Void) {
        records.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { update(&buffer[index]) }
        }
    }

    /// Releases the index, keeping keys and records in arrival order, for a store that will only
    /// be taken apart (`removeAll`) from now on: its index would hold memory until then, and
    /// lookups find nothing once it is gone.
    mutating func releaseIndex() {
        index = Index()
    }

    /// Moves the keys and records out, leaving the store empty (`RoutedRecords`, `forEachConsumed`).
    mutating func removeAll() -> (keys: GrowingArray<Index.Key>, records: GrowingArray<Record>) {
        defer { self = KeyedRecords() }
        return (keys, records)
    }

    /// Hands every record to `body` with its position and key, in arrival order, the records moved
    /// out rather than copied (`GrowingArray.forEachConsumed`): a join stage consumes its input.
    consuming func forEachConsumed(_ body: (_ position: Int, _ key: Index.Key, _ record: consuming Record) -> Void) {
        let (keys, records) = removeAll()
        var position = 0
        (consume records).forEachConsumed { record in
            body(position, keys[position], record)
            position += 1
        }
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
    ///
    /// Two passes: the first finds where each key of `other` is here, so that the store grows
    /// only by the keys it lacks (room for all of `other` would copy and rehash a large store
    /// that most of `other`'s keys are already in); the second merges or appends each record.
    /// `other`'s records are moved in, not copied, when it holds them alone.
    mutating func merge(_ other: consuming KeyedRecords, _ translation: SymbolTranslation? = nil, symbols: SymbolTable) {
        if translation == nil, records.isEmpty {
            self = other
            return
        }
        // Into an empty store, keys the translation leaves as they are keep their index and only
        // the records are mapped: what sealing a night's emails does (they are never keys).
        if let translation, records.isEmpty, other.keys.allSatisfy({ Index.translated($0, translation) == $0 }) {
            self = other
            updateRecords { $0 = $0.translated(translation) }
            return
        }
        // Translated in one pass first: its reads of the translation are independent misses.
        let keys = translation.map { translation in GrowingArray(other.keys.lazy.map { Index.translated($0, translation) }) } ?? other.keys
        let positions = positions(of: keys)
        reserve(count + positions.count { $0 == Self.absent })
        // A record here, or the index slot of a new key, is a cache miss in a large store: that
        // of the key `lookahead` places ahead is asked for while the current one is merged.
        (consume other).forEachConsumed { position, _, record in
            let ahead = position + Self.lookahead
            if ahead < keys.count { prefetch(keys[ahead], at: positions[ahead]) }
            let here = positions[position]
            let merged: Record
            if let translation { merged = record.translated(translation) } else { merged = record }
            if here == Self.absent {
                append(keys[position], merged)
            } else {
                records[Int(here)].merge(merged, symbols: symbols)
            }
        }
    }

    /// Marks a key that `positions(of:)` did not find.
    private static var absent: UInt32 { .max }

    /// How many keys ahead a merge asks for what it will touch.
    private static var lookahead: Int { 8 }

    /// The position of each of `keys` here, or `absent`. The index entry of the key `lookahead`
    /// places ahead is asked for while the current one is looked up.
    private func positions(of keys: GrowingArray<Index.Key>) -> [UInt32] {
        keys.indices.map { position in
            let ahead = position + Self.lookahead
            if ahead < keys.count { prefetch(keys[ahead]) }
            return index.position(of: keys[position], in: self.keys).map { UInt32($0) } ?? Self.absent
        }
    }

    /// Starts reading what merging a key at `position` (`absent`: a new key) touches first.
    private func prefetch(_ key: Index.Key, at position: UInt32) {
        if position == Self.absent {
            prefetch(key)
        } else {
            records.prefetch(Int(position))
        }
    }
}

/// Records keyed by one symbol (a click, an open, an order, a campaign).
typealias SymbolKeyedRecords<Record: MergeableRecord> = KeyedRecords<SymbolIndex, Record>

/// Records keyed by two symbols (a campaign's install, a campaign's variant).
typealias PairKeyedRecords<Record: MergeableRecord> = KeyedRecords<HashedIndex<SymbolPair>, Record>
