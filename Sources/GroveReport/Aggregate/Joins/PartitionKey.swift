/// A store key placed in a partition by the symbol-table shard of one of its symbols, so that
/// every record of one key, from any partial state or stage, lands in the same partition and a
/// partition joins on its own. A string's shard is the same in every table of the process, so a
/// worker's stores, kept apart by shard while it parses (`ShardedPartialState`), move whole into
/// their partitions.
protocol PartitionKey {
    /// The symbol whose shard places the key.
    var partitionSymbol: Symbol { get }
}

extension PartitionKey {
    /// The partition of `count` (at most `SymbolTable.shardCount`) this key belongs to: partition
    /// `p` holds the shards `p`, `p + count`, `p + 2 × count`…
    func partition(of count: Int) -> Int {
        SymbolTable.shard(of: partitionSymbol) % count
    }
}

extension Symbol: PartitionKey {
    var partitionSymbol: Symbol { self }
}

extension SymbolPair: PartitionKey {
    /// The second symbol: a campaign's install then shares its partition with the install's units
    /// of that campaign (`CampaignUnit`), and stage 1 keeps them at home.
    var partitionSymbol: Symbol { second }
}

extension UnitKey: PartitionKey {
    /// The id alone: an install and a customer of the same id may share a partition, harmlessly.
    var partitionSymbol: Symbol { id }
}

extension CampaignUnit: PartitionKey {
    /// The unit, not the campaign: stage 2 turns an assignment into an exposure of its unit, which
    /// then stays in its partition for stage 3.
    var partitionSymbol: Symbol { unit.partitionSymbol }
}

/// One store's records on their way to partitions: each key already in the shared symbol table,
/// and the partition it hashes to. Every partition then collects its own records by scanning the
/// partition numbers, so each record is copied once, into its partition, with no parts in between.
struct RoutedRecords<Index: RecordIndex, Record: MergeableRecord>: Sendable where Index.Key: PartitionKey {
    let keys: GrowingArray<Index.Key>
    let records: GrowingArray<Record>
    /// Maps the records' symbols when they come from another table (the keys are mapped already).
    let translation: SymbolTranslation?
    let partitions: [UInt32]

    /// Routes `store` on `threads` threads, each taking a range of its keys.
    init(_ store: consuming KeyedRecords<Index, Record>, _ translation: SymbolTranslation?, count: Int, threads: Int) {
        var (keys, records) = store.removeAll()
        var partitions = [UInt32](repeating: 0, count: keys.count)
        // In place: the keys are this store's alone now.
        keys.withUnsafeMutableBufferPointer { keys in
            partitions.withUnsafeMutableBufferPointer { partitions in
                Parallel.forEachRange(of: keys.count, threads: threads) { range in
                    for index in range {
                        if let translation { keys[index] = Index.translated(keys[index], translation) }
                        partitions[index] = UInt32(truncatingIfNeeded: keys[index].partition(of: count))
                    }
                }
            }
        }
        self.keys = keys
        self.records = records
        self.translation = translation
        self.partitions = partitions
    }
}

extension KeyedRecords where Index.Key: PartitionKey {
    /// Adds the records of `routed` whose keys hash to partition `part`, in store order, merging
    /// records of one key. `distinct`: this store is empty and `routed` the first store, whose keys
    /// are distinct, so there is nothing to look up.
    mutating func collect(_ part: Int, from routed: RoutedRecords<Index, Record>, distinct: Bool, symbols: SymbolTable) {
        let wanted = UInt32(truncatingIfNeeded: part)
        // Each key's index entry is a cache miss in a large partition, and so is each record (a
        // partition's records lie among every other partition's): the entries and records of
        // the next `distance` records of this partition are prefetched while the current one is
        // added.
        let distance = 8
        var ahead = 0
        var prefetched = 0
        for index in routed.partitions.indices where routed.partitions[index] == wanted {
            while prefetched <= distance, ahead < routed.partitions.count {
                if routed.partitions[ahead] == wanted {
                    prefetch(routed.keys[ahead])
                    routed.records.prefetch(ahead)
                    prefetched += 1
                }
                ahead += 1
            }
            prefetched -= 1
            let key = routed.keys[index]
            let record = routed.translation.map { routed.records[index].translated($0) } ?? routed.records[index]
            if distinct {
                append(key, record)
            } else {
                upsert(key, { record }, { $0.merge(record, symbols: symbols) })
            }
        }
    }
}
