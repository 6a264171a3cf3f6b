/// A per-key record of a partial state: two records of one key combine into one, in any order.
protocol MergeableRecord {
    mutating func merge(_ other: Self)
}

extension Dictionary where Value: MergeableRecord {
    /// Stores `record` under `key`, merging it into the record already there.
    mutating func mergeRecord(_ record: Value, at key: Key) {
        if self[key]?.merge(record) == nil { self[key] = record }
    }

    /// Merges every record of `other` into this dictionary.
    mutating func mergeRecords(from other: [Key: Value]) {
        for (key, record) in other { mergeRecord(record, at: key) }
    }
}
