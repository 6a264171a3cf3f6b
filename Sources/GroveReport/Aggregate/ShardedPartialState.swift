/// A worker's partial state for `run`, its keyed stores kept apart from the first line by the
/// symbol-table shard of their key (`PartitionKey`), which is the same in every worker's table.
/// The merge then moves each of the largest worker's shards whole into its partition, index and
/// all, and merges only the other workers' shards into it (`PartitionedState`): no record of the
/// largest worker is copied or indexed again, and a store grows by doubling a sixteenth at a time.
struct ShardedPartialState: WorkerState {
    var symbols = SymbolTable()
    var accounting = Accounting()
    var rejects: [RejectRecord] = []
    /// By shard number. A shard's campaign counters and audit totals count its own events, and
    /// are summed over all shards at the merge.
    var shards = SymbolTable.PerShard<Shard>(repeating: Shard())

    /// The stores of one shard.
    struct Shard: Sendable {
        var attribution = AttributionState()
        var exposure = ExposureState()

        /// Mutating only so that the shard is reached in place: a non-mutating call would copy
        /// it out of the inline array, a retain and release of each of its stores.
        mutating func prefetch(_ event: Event) {
            if event.isAttribution {
                attribution.prefetch(event)
            } else {
                exposure.prefetch(event)
            }
        }
    }

    init() {}

    mutating func add(_ event: Event) {
        let shard = SymbolTable.shard(of: event.partitionSymbol)
        if event.isAttribution {
            shards[shard].attribution.add(event, symbols: symbols)
        } else {
            shards[shard].exposure.add(event, symbols: symbols)
        }
    }

    mutating func prefetch(_ event: Event) {
        shards[SymbolTable.shard(of: event.partitionSymbol)].prefetch(event)
    }
}
