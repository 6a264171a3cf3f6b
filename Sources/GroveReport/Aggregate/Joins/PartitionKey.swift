/// A store key that picks its partition by hash, so that every record of one key, from any
/// partial state or stage, lands in the same partition and a partition joins on its own.
protocol PartitionKey {
    /// A well-mixed hash of the key's symbols (numbers of the one table the partitions share).
    var partitionHash: UInt64 { get }
}

extension PartitionKey {
    /// The partition of `count` this key belongs to.
    func partition(of count: Int) -> Int {
        count == 1 ? 0 : Int(truncatingIfNeeded: (partitionHash >> 32) % UInt64(count))
    }
}

extension Symbol: PartitionKey {
    var partitionHash: UInt64 { UInt64(raw) &* 0x9E37_79B9_7F4A_7C15 }
}

extension SymbolPair: PartitionKey {
    var partitionHash: UInt64 { (UInt64(first.raw) << 32 | UInt64(second.raw)) &* 0x9E37_79B9_7F4A_7C15 }
}

extension UnitKey: PartitionKey {
    /// By id alone: an install and a customer of the same id may share a partition, harmlessly.
    var partitionHash: UInt64 { id.partitionHash }
}

extension CampaignUnit: PartitionKey {
    /// By unit, not campaign: stage 2 turns an assignment into an exposure of its unit, which then
    /// stays in its partition for stage 3.
    var partitionHash: UInt64 { unit.partitionHash }
}

/// One store's records on their way to partitions: each key already in the shared symbol table,
/// and the partition it hashes to. Every partition then collects its own records by scanning the
/// partition numbers, so each record is copied once, into its partition, with no parts in between.
struct RoutedRecords<Index: RecordIndex, Record: MergeableRecord>: Sendable where Index.Key: PartitionKey {
    let keys: [Index.Key]
    let records: [Record]
    /// Maps the records' symbols when they come from another table (the keys are mapped already).
    let translation: SymbolTranslation?
    let partitions: [UInt32]

    init(_ store: consuming KeyedRecords<Index, Record>, _ translation: SymbolTranslation?, count: Int) {
        let (keys, records) = store.removeAll()
        self.keys = translation.map { translation in keys.map { Index.translated($0, translation) } } ?? keys
        self.records = records
        self.translation = translation
        partitions = self.keys.map { UInt32(truncatingIfNeeded: $0.partition(of: count)) }
    }
}

extension KeyedRecords where Index.Key: PartitionKey {
    /// Partition `part`: the records of every routed store whose keys hash to it, in store order,
    /// merging records of one key.
    static func collecting(_ part: Int, of count: Int, from routed: [RoutedRecords<Index, Record>], symbols: SymbolTable) -> KeyedRecords {
        var store = KeyedRecords()
        // A part's share, with room for hashing's spread, so that the arrays grow at most once.
        let share = routed.reduce(0) { $0 + $1.keys.count } / count
        store.reserve(share + share / 8 + 16)
        let wanted = UInt32(truncatingIfNeeded: part)
        for (source, routes) in routed.enumerated() {
            for index in routes.partitions.indices where routes.partitions[index] == wanted {
                let key = routes.keys[index]
                let record = routes.translation.map { routes.records[index].translated($0) } ?? routes.records[index]
                // The first store's keys are distinct: nothing to look up.
                if source == 0 {
                    store.append(key, record)
                } else {
                    store.upsert(key, { record }, { $0.merge(record, symbols: symbols) })
                }
            }
        }
        return store
    }
}
