/// A state past every join stage: the per-campaign results of the joins, with the accounting and
/// the per-campaign Grona counters and totals they are reported with. Only this phase builds
/// results, so an unjoined state cannot be reported by mistake (it would give empty rows).
struct JoinedState: Sendable {
    var symbols = SymbolTable()
    var accounting = Accounting()
    var counters = SymbolKeyedRecords<CampaignCounters>()
    var totals = AuditTotals()
    var joins = JoinResults()

    /// An empty analysis.
    init() {}

    /// The report inputs of records that are all past join stage 3, such as `render`'s final
    /// records or a state file's aggregates; whatever else the state holds is dropped.
    init(afterJoins state: consuming PartialState) {
        symbols = state.symbols
        accounting = state.accounting
        counters = state.exposure.counters
        totals = state.exposure.totals
        joins = state.joins.results
    }
}

/// The per-campaign stores of the join stages: small, so the partitions' meet at the end.
struct JoinResults: Sendable {
    var campaignAttribution = SymbolKeyedRecords<AttributionCounts>()
    var variants = PairKeyedRecords<VariantCounts>()
    var campaignStats = SymbolKeyedRecords<CampaignStats>()
    var attributionExtras = AttributionExtras()

    /// Adds `other`, whose symbols belong to the same table.
    mutating func merge(_ other: JoinResults, symbols: SymbolTable) {
        campaignAttribution.merge(other.campaignAttribution, symbols: symbols)
        variants.merge(other.variants, symbols: symbols)
        campaignStats.merge(other.campaignStats, symbols: symbols)
        attributionExtras.merge(other.attributionExtras, symbols: symbols)
    }
}
