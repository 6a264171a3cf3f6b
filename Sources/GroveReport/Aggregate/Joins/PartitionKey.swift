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
    /// By the second symbol alone: a campaign's install then shares its partition with the
    /// install's units of that campaign (`CampaignUnit`), and stage 1 keeps them at home.
    var partitionHash: UInt64 { second.partitionHash }
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
        // Each key's index entry is a cache miss in a large partition: the entries of the next
        // `distance` records of this partition are prefetched while the current one is added.
        let distance = 8
        var ahead = 0
        var prefetched = 0
        for index in routed.partitions.indices where routed.partitions[index] == wanted {
            while prefetched <= distance, ahead < routed.partitions.count {
                if routed.partitions[ahead] == wanted {
                    prefetch(routed.keys[ahead])
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
