/// The keyed stores of one partition: every record whose key hashes to it, and the per-campaign
/// results its joins found. Partitions share one symbol table and join apart, on any thread.
struct JoinPartition: Sendable {
    var attribution = AttributionState()
    var installs = PairKeyedRecords<InstallRecord>()
    var orders = SymbolKeyedRecords<OrderRecord>()
    var joins = JoinState()
    /// Preview or consent-denied events join stage 1 found in the analysis (`AuditTotals.leaked`).
    var leaked = 0
    /// Stage 1's records whose keys hash to another partition, by that partition's number (none
    /// when there is one partition): the shuffle before stage 2 moves these alone, and the
    /// records already at home stay where they are, index and all.
    var outgoing: [JoinState] = []
    /// This partition's number, as stage 1 was told.
    var home = 0

    init() {}

    /// Moves a partial state's keyed stores out (its accounting, counters and totals stay).
    init(_ state: inout PartialState) {
        attribution = take(&state.attribution, AttributionState())
        installs = take(&state.exposure.installs, .init())
        orders = take(&state.exposure.orders, .init())
        joins = take(&state.joins, JoinState())
    }

    /// A partition of `run` from its shards of every worker, in merge order: the first (the
    /// largest worker's, untranslated) moves in whole, the others' records merge into it.
    init(merging shards: consuming [(ShardedPartialState.Shard, SymbolTranslation?)], symbols: SymbolTable) {
        for index in shards.indices {
            var (shard, translation) = take(&shards[index], (.init(), nil))
            attribution.merge(take(&shard.attribution, .init()), translation, symbols: symbols)
            installs.merge(take(&shard.exposure.installs, .init()), translation, symbols: symbols)
            orders.merge(take(&shard.exposure.orders, .init()), translation, symbols: symbols)
        }
    }

    /// Deals the records of `input` into `count` partitions by key hash, on `threads` threads,
    /// mapping each source's symbols by its translation first. One store of one source at a time,
    /// each released once dealt, so memory holds at most that store twice. Unkeyed counts go to
    /// partition 0.
    static func gathered(
        _ input: consuming [(JoinPartition, SymbolTranslation?)], into count: Int, threads: Int, symbols: SymbolTable
    ) -> [JoinPartition] {
        // Moved, not copied: a second reference would keep every store alive until the end.
        var sources = consume input
        var parts = [JoinPartition](repeating: JoinPartition(), count: count)
        for index in sources.indices {
            parts[0].joins.attributionExtras.merge(sources[index].0.joins.attributionExtras, symbols: symbols)
            parts[0].leaked += sources[index].0.leaked
        }
        // First every source's indexes go (dealing reads keys and records only), then the stores
        // are dealt one by one, the largest records first, while the fewest partition indexes
        // exist: the peak memory of a run is reached here.
        for releasing in [true, false] {
            let deal = StoreDealer(count: count, threads: threads, symbols: symbols, releasingIndexes: releasing)
            deal(\.installs, from: &sources, into: &parts)
            deal(\.attribution.opens, from: &sources, into: &parts)
            deal(\.attribution.clicks, from: &sources, into: &parts)
            deal(\.attribution.bindings, from: &sources, into: &parts)
            deal(\.orders, from: &sources, into: &parts)
            deal(\.joins.clickJoins, from: &sources, into: &parts)
            deal(\.joins.unitAssignments, from: &sources, into: &parts)
            deal(\.joins.unitConversions, from: &sources, into: &parts)
            deal(\.joins.campaignAttribution, from: &sources, into: &parts)
            deal(\.joins.variants, from: &sources, into: &parts)
            deal(\.joins.campaignStats, from: &sources, into: &parts)
        }
        return parts
    }
}

/// Deals one keyed store of every source into the partitions (`JoinPartition.gathered`).
private struct StoreDealer {
    let count: Int
    let threads: Int
    let symbols: SymbolTable
    /// Only release each source's index of the store, deal nothing yet.
    let releasingIndexes: Bool

    func callAsFunction<Index, Record>(
        _ path: WritableKeyPath<JoinPartition, KeyedRecords<Index, Record>>,
        from sources: inout [(JoinPartition, SymbolTranslation?)], into parts: inout [JoinPartition]
    ) where Index.Key: PartitionKey {
        // One untranslated store into one partition stays as it is, in arrival order.
        if count == 1, sources.count == 1, sources[0].1 == nil {
            if !releasingIndexes { parts[0][keyPath: path] = take(&sources[0].0[keyPath: path], .init()) }
            return
        }
        guard !releasingIndexes else {
            for source in sources.indices { sources[source].0[keyPath: path].releaseIndex() }
            return
        }
        // A partition's share, with room for hashing's spread, so that its arrays grow at most once.
        let share = sources.reduce(0) { $0 + $1.0[keyPath: path].count } / count
        var columns = parts.indices.map { _ in
            var store = KeyedRecords<Index, Record>()
            store.reserve(share + share / 8 + 16)
            return store
        }
        // Source by source, each released once dealt: memory holds one source's store twice at
        // most, not every source's.
        for source in sources.indices {
            let routed = RoutedRecords(
                take(&sources[source].0[keyPath: path], .init()), sources[source].1, count: count, threads: threads)
            let symbols = self.symbols
            Parallel.forEach(&columns, threads: threads) { part, column in
                column.collect(part, from: routed, distinct: source == 0, symbols: symbols)
            }
        }
        for (part, store) in columns.enumerated() { parts[part][keyPath: path] = store }
    }
}
