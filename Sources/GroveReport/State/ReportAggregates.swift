/// The per-campaign results of the join stages that a state keeps up to date between runs:
/// attribution rows and totals, exposure counts per variant and per-campaign exclusions. A run
/// adds the contribution of the records it changed, as they are now, and takes back the
/// contribution of the same records as they were, so every figure is a sum over components.
struct ReportAggregates {
    var campaignAttribution = SymbolKeyedRecords<AttributionCounts>()
    var variants = PairKeyedRecords<VariantCounts>()
    var campaignStats = SymbolKeyedRecords<CampaignStats>()
    var attributionExtras = AttributionExtras()

    /// The aggregates of a state past every join stage, added (`sign` 1) or taken back (-1).
    init(_ joined: JoinedState, sign: Int) {
        let joins = joined.joins
        for (key, counts) in zip(joins.campaignAttribution.keys, joins.campaignAttribution.records) {
            campaignAttribution.upsert(key, { counts.scaled(by: sign) }, { _ in })
        }
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) {
            variants.upsert(key, { counts.scaled(by: sign) }, { _ in })
        }
        for (key, stats) in zip(joins.campaignStats.keys, joins.campaignStats.records) {
            campaignStats.upsert(key, { stats.scaled(by: sign) }, { _ in })
        }
        attributionExtras = joins.attributionExtras.scaled(by: sign)
    }

    /// A state holding only these aggregates (for merging and encoding), without the records
    /// that sum to nothing: a campaign whose last click moved elsewhere has no row. Its symbol
    /// table holds only the names its keys use (`symbols` names them): a joined state's table
    /// holds every id of its records, and merging a state translates its whole table (about a
    /// hundred million instructions a night, for a few hundred campaign and variant names).
    func state(symbols: SymbolTable) -> PartialState {
        var state = PartialState()
        func own(_ symbol: Symbol) -> Symbol { state.symbols.intern(Array(symbols.bytes(symbol))) }
        for (key, counts) in zip(campaignAttribution.keys, campaignAttribution.records) where counts != AttributionCounts() {
            state.joins.campaignAttribution.upsert(own(key), { counts }, { _ in })
        }
        for (key, counts) in zip(variants.keys, variants.records) where counts != VariantCounts() {
            state.joins.variants.upsert(SymbolPair(first: own(key.first), second: own(key.second)), { counts }, { _ in })
        }
        for (key, stats) in zip(campaignStats.keys, campaignStats.records) where stats != CampaignStats() {
            state.joins.campaignStats.upsert(own(key), { stats }, { _ in })
        }
        state.joins.attributionExtras = attributionExtras
        return state
    }
}

extension AttributionCounts {
    func scaled(by sign: Int) -> AttributionCounts {
        var scaled = AttributionCounts()
        scaled.clicks = clicks * sign
        scaled.storeClicks = storeClicks * sign
        scaled.appClicks = appClicks * sign
        scaled.opens = opens * sign
        scaled.openRetries = openRetries * sign
        scaled.openConflicts = openConflicts * sign
        scaled.attributed = attributed * sign
        scaled.bindRetries = bindRetries * sign
        scaled.bindConflicts = bindConflicts * sign
        scaled.days = days.scaled(by: sign)
        return scaled
    }
}

extension VariantCounts {
    func scaled(by sign: Int) -> VariantCounts {
        VariantCounts(
            controlUnits: controlUnits * sign, units: units * sign, convertedUnits: convertedUnits * sign,
            orders: orders * sign, revenueMinor: revenueMinor * Int128(sign),
            revenueSquares: sign < 0 ? revenueSquares.negated : revenueSquares, impressions: impressions * sign,
            days: days.scaled(by: sign))
    }
}

extension CampaignStats {
    func scaled(by sign: Int) -> CampaignStats {
        CampaignStats(
            previewInstalls: previewInstalls * sign, contaminated: contaminated * sign,
            multiVariantUnits: multiVariantUnits * sign)
    }
}

extension AttributionExtras {
    func scaled(by sign: Int) -> AttributionExtras {
        AttributionExtras(
            duplicateClicks: duplicateClicks * sign, orphanOpens: orphanOpens * sign,
            unresolvedOpens: unresolvedOpens * sign, orphanBinds: orphanBinds * sign,
            bindsOutsideWindow: bindsOutsideWindow * sign)
    }
}
