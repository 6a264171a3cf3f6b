/// The keyed stores of one partition: every record whose key hashes to it, and the per-campaign
/// results its joins found. Partitions share one symbol table and join apart, on any thread.
struct JoinPartition: Sendable {
    var attribution = AttributionState()
    var installs = PairKeyedRecords<InstallRecord>()
    var orders = SymbolKeyedRecords<OrderRecord>()
    var joins = JoinState()
    /// Preview or consent-denied events join stage 1 found in the analysis (`AuditTotals.leaked`).
    var leaked = 0

    init() {}

    /// Moves a partial state's keyed stores out (its accounting, counters and totals stay).
    init(_ state: inout PartialState) {
        attribution = take(&state.attribution, AttributionState())
        installs = take(&state.exposure.installs, .init())
        orders = take(&state.exposure.orders, .init())
        joins = take(&state.joins, JoinState())
    }

    /// Moves every record to the partition of `count` its key hashes to, mapping it first by
    /// `translation` when it comes from another symbol table. Unkeyed counts go to partition 0.
    consuming func split(into count: Int, _ translation: SymbolTranslation?) -> [JoinPartition] {
        var parts = [JoinPartition](repeating: JoinPartition(), count: count)
        parts.distribute(take(&attribution.clicks, .init()).split(into: count, translation), \.attribution.clicks)
        parts.distribute(take(&attribution.opens, .init()).split(into: count, translation), \.attribution.opens)
        parts.distribute(take(&attribution.bindings, .init()).split(into: count, translation), \.attribution.bindings)
        parts.distribute(take(&installs, .init()).split(into: count, translation), \.installs)
        parts.distribute(take(&orders, .init()).split(into: count, translation), \.orders)
        parts.distribute(take(&joins.clickJoins, .init()).split(into: count, translation), \.joins.clickJoins)
        parts.distribute(take(&joins.unitAssignments, .init()).split(into: count, translation), \.joins.unitAssignments)
        parts.distribute(take(&joins.unitConversions, .init()).split(into: count, translation), \.joins.unitConversions)
        parts.distribute(
            take(&joins.campaignAttribution, .init()).split(into: count, translation), \.joins.campaignAttribution)
        parts.distribute(take(&joins.variants, .init()).split(into: count, translation), \.joins.variants)
        parts.distribute(take(&joins.campaignStats, .init()).split(into: count, translation), \.joins.campaignStats)
        parts[0].joins.attributionExtras = joins.attributionExtras
        parts[0].leaked = leaked
        return parts
    }

    /// Merges partitions of the same table into one, in order, releasing each as it is merged.
    static func merged(_ parts: consuming [JoinPartition], symbols: SymbolTable) -> JoinPartition {
        parts.reverse()
        var merged = JoinPartition()
        while let part = parts.popLast() {
            merged.attribution.merge(part.attribution, nil, symbols: symbols)
            merged.installs.merge(part.installs, symbols: symbols)
            merged.orders.merge(part.orders, symbols: symbols)
            merged.joins.merge(part.joins, nil, symbols: symbols)
            merged.leaked += part.leaked
        }
        return merged
    }
}

private extension [JoinPartition] {
    /// Gives partition `i` the `i`-th of `stores`.
    mutating func distribute<Store>(_ stores: [Store], _ path: WritableKeyPath<JoinPartition, Store>) {
        for (part, store) in zip(indices, stores) { self[part][keyPath: path] = store }
    }
}
