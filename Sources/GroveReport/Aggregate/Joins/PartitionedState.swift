/// Partial states merged into partitions by key (`PartitionKey`), which the join stages work on
/// apart, on every thread: only the small per-campaign results meet at the end (`joined`). How
/// many partitions there are changes no result, only how finely the work is dealt to threads.
struct PartitionedState: Sendable {
    private(set) var symbols = SymbolTable()
    var accounting = Accounting()
    private var rejects: [RejectRecord] = []
    private var counters = SymbolKeyedRecords<CampaignCounters>()
    private var totals = AuditTotals()
    private var partitions: [JoinPartition] = []
    /// How many threads the merge and the stages run on.
    private let threads: Int

    /// Merges `partials` into `count` partitions (at most `SymbolTable.shardCount`) on `threads`
    /// threads. The symbol tables merge into the largest one's, then each partition gathers its
    /// records from every partial.
    init(merging partials: consuming [PartialState], partitions count: Int, threads: Int) {
        self.threads = threads
        partials.sort { $0.symbols.count < $1.symbols.count }
        var sources: [(JoinPartition, SymbolTranslation?)] = []
        while var partial = partials.popLast() {
            let translation = adopt(
                &partial.symbols, first: sources.isEmpty, accounting: partial.accounting, rejects: partial.rejects)
            counters.merge(partial.exposure.counters, translation, symbols: symbols)
            totals.merge(partial.exposure.totals, symbols: symbols)
            sources.append((JoinPartition(&partial), translation))
        }
        partitions = JoinPartition.gathered(
            consume sources, into: Self.partitionCount(count), threads: threads, symbols: symbols)
    }

    /// Merges the sharded states of `run`'s workers into `count` partitions (at most
    /// `SymbolTable.shardCount`) on `threads` threads. The symbol tables merge into the largest
    /// one's; then each partition, on every thread, takes its shards of the largest worker whole
    /// and merges the other workers' shards of it in.
    init(merging workers: consuming [ShardedPartialState], partitions count: Int, threads: Int) {
        self.threads = threads
        let count = Self.partitionCount(count)
        workers.sort { $0.symbols.count < $1.symbols.count }
        // Each partition's shards in merge order, the largest worker's (untranslated) first. Held
        // here alone: a second reference would make the merge copy the stores it grows.
        var built = [(shards: [(ShardedPartialState.Shard, SymbolTranslation?)], partition: JoinPartition)](
            repeating: ([], JoinPartition()), count: count)
        while var worker = workers.popLast() {
            // The first worker is the one before any shard was taken.
            let translation = adopt(
                &worker.symbols, first: built[0].shards.isEmpty, accounting: worker.accounting, rejects: worker.rejects)
            for number in worker.shards.indices {
                var shard = take(&worker.shards[number], .init())
                counters.merge(take(&shard.exposure.counters, .init()), translation, symbols: symbols)
                totals.merge(shard.exposure.totals, symbols: symbols)
                built[number % count].shards.append((shard, translation))
            }
        }
        let symbols = self.symbols
        Parallel.forEach(&built, threads: threads) { _, item in
            item.partition = JoinPartition(merging: take(&item.shards, []), symbols: symbols)
        }
        partitions = built.map(\.partition)
    }

    /// Takes a worker's symbol table (the `first`, largest one, as it is) and its accounting and
    /// rejects. Returns the translation of the worker's symbols into the merged table, nil for
    /// the first.
    private mutating func adopt(
        _ table: inout SymbolTable, first: Bool, accounting: Accounting, rejects: [RejectRecord]
    ) -> SymbolTranslation? {
        self.accounting.merge(accounting)
        self.rejects += rejects
        guard !first else {
            symbols = take(&table, SymbolTable())
            return nil
        }
        return take(&table, SymbolTable()).translation(into: &symbols, threads: threads)
    }

    /// `count` within what the shards allow: a partition holds whole shards.
    private static func partitionCount(_ count: Int) -> Int {
        min(max(1, count), SymbolTable.shardCount)
    }

    /// Delivers what stage 1 of every partition wrote for another (`JoinPartition.outgoing`) to
    /// that partition: the shuffle between stages 1 and 2, whose inputs are keyed differently.
    /// Each delivery is moved to its partition first, which then owns it alone: its merge moves
    /// the records in rather than copying them.
    private mutating func reshuffle() {
        var deliveries = partitions.indices.map {
            (partition: take(&partitions[$0], JoinPartition()), incoming: [JoinState]())
        }
        for source in deliveries.indices {
            for (target, state) in take(&deliveries[source].partition.outgoing, []).enumerated() {
                deliveries[target].incoming.append(state)
            }
        }
        let symbols = self.symbols
        Parallel.forEach(&deliveries, threads: threads) { _, delivery in
            for source in delivery.incoming.indices {
                delivery.partition.joins.merge(take(&delivery.incoming[source], JoinState()), nil, symbols: symbols)
            }
        }
        partitions = deliveries.map(\.partition)
    }

    /// Runs a stage on every partition (with its number), on every thread.
    private mutating func forEachPartition(_ stage: (Int, inout JoinPartition) -> Void) {
        Parallel.forEach(&partitions, threads: threads, stage)
    }

    mutating func joinStage1(scope: PreviewScope) {
        let noCampaign = symbols.intern(JoinPartition.noCampaign)
        let (symbols, count) = (self.symbols, partitions.count)
        forEachPartition { number, partition in
            partition.joinStage1(scope: scope, noCampaign: noCampaign, symbols: symbols, number: number, of: count)
        }
    }

    mutating func joinStage2(windows: AnalysisWindows = .init()) {
        forEachPartition { $1.joinStage2(windows: windows) }
    }

    mutating func joinStage3(windows: AnalysisWindows = .init()) {
        forEachPartition { $1.joinStage3(windows: windows) }
    }

    /// All three stages. Stage 2 keeps each exposure in the partition of its unit (see
    /// `CampaignUnit`), where stage 1 has put the unit's orders: no shuffle before stage 3.
    consuming func joined(scope: PreviewScope, windows: AnalysisWindows = .init()) -> JoinedState {
        joinStage1(scope: scope)
        reshuffle()
        joinStage2(windows: windows)
        joinStage3(windows: windows)
        var joined = JoinedState()
        for partition in take(&partitions, []) {
            joined.joins.merge(partition.joins.results, symbols: symbols)
            totals.leaked += partition.leaked
        }
        joined.symbols = symbols
        joined.accounting = accounting
        joined.counters = counters
        joined.totals = totals
        return joined
    }

    /// One partial state of every partition's records, as the stage commands write it (with
    /// whatever stage 1 wrote for other partitions delivered first).
    consuming func flattened() -> PartialState {
        reshuffle()
        let sources = take(&partitions, []).map { ($0, SymbolTranslation?.none) }
        let merged = JoinPartition.gathered(consume sources, into: 1, threads: threads, symbols: symbols)[0]
        var state = PartialState()
        state.symbols = symbols
        state.accounting = accounting
        state.rejects = rejects
        state.attribution = merged.attribution
        state.exposure.counters = counters
        state.exposure.installs = merged.installs
        state.exposure.orders = merged.orders
        state.exposure.totals = totals
        state.exposure.totals.leaked += merged.leaked
        state.joins = merged.joins
        return state
    }
}
