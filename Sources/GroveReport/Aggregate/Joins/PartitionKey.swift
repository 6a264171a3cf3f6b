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

extension KeyedRecords where Index.Key: PartitionKey {
    /// Moves the records into `count` stores by key hash, first mapping keys and records by
    /// `translation` when they come from another symbol table. One store untranslated is kept as
    /// it is, in arrival order.
    consuming func split(into count: Int, _ translation: SymbolTranslation?) -> [KeyedRecords] {
        if count == 1 && translation == nil { return [self] }
        var parts = [KeyedRecords](repeating: KeyedRecords(), count: count)
        let (keys, records) = removeAll()
        // A part's share, with room for hashing's spread, so that no part doubles its arrays.
        let share = keys.count / count
        for part in parts.indices { parts[part].reserve(share + share / 8 + 16) }
        for (key, record) in zip(keys, records) {
            guard let translation else {
                parts[key.partition(of: count)].append(key, record)
                continue
            }
            let translated = Index.translated(key, translation)
            parts[translated.partition(of: count)].append(translated, record.translated(translation))
        }
        return parts
    }
}
