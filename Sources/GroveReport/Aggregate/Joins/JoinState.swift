/// The records of the join stages (after the per-key merge of the partial states): what each
/// stage hands the next, keyed so that one shuffle by key brings together what a join needs.
///
/// | store | key | written by | read by |
/// |---|---|---|---|
/// | `clickJoins` | clickId | stage 1 | stage 2 |
/// | `unitAssignments` | (campaign, unit) | stage 1 | stage 2 |
/// | `unitConversions` | unit | stages 1 (orders) and 2 (exposures) | stage 3 |
/// | `campaignAttribution` | campaign | stage 2 | the reports |
/// | `variants` | (campaign, variant) | stages 1–3 | the reports |
/// | `campaignStats` | campaign | stages 1–2 | the reports |
/// | `attributionExtras` | — | stages 1–2 | the reports |
struct JoinState: Sendable {
    var clickJoins = SymbolKeyedRecords<ClickJoin>()
    var unitAssignments = KeyedRecords<HashedIndex<CampaignUnit>, UnitAssignment>()
    var unitConversions = KeyedRecords<HashedIndex<UnitKey>, UnitConversion>()
    var campaignAttribution = SymbolKeyedRecords<AttributionCounts>()
    var variants = PairKeyedRecords<VariantCounts>()
    var campaignStats = SymbolKeyedRecords<CampaignStats>()
    var attributionExtras = AttributionExtras()

    /// Merges `other`, whose symbols `translation` maps into `symbols` (nil: they are its already),
    /// moving its records in when it holds them alone.
    mutating func merge(_ other: consuming JoinState, _ translation: SymbolTranslation?, symbols: SymbolTable) {
        clickJoins.merge(take(&other.clickJoins, .init()), translation, symbols: symbols)
        unitAssignments.merge(take(&other.unitAssignments, .init()), translation, symbols: symbols)
        unitConversions.merge(take(&other.unitConversions, .init()), translation, symbols: symbols)
        campaignAttribution.merge(take(&other.campaignAttribution, .init()), translation, symbols: symbols)
        variants.merge(take(&other.variants, .init()), translation, symbols: symbols)
        campaignStats.merge(take(&other.campaignStats, .init()), translation, symbols: symbols)
        attributionExtras.merge(other.attributionExtras, symbols: symbols)
    }

    /// The per-campaign stores, which the stages only add to.
    var results: JoinResults {
        get {
            JoinResults(
                campaignAttribution: campaignAttribution, variants: variants, campaignStats: campaignStats,
                attributionExtras: attributionExtras)
        }
        set {
            campaignAttribution = newValue.campaignAttribution
            variants = newValue.variants
            campaignStats = newValue.campaignStats
            attributionExtras = newValue.attributionExtras
        }
    }
}
