/// `campaign_stats`, keyed by campaign: preview installs, contaminated events and multi-variant
/// units.
extension CampaignStats: KeyedStageRecord {
    static let kind = "campaign_stats"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<CampaignStats>> { \.joins.campaignStats }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [JSONOutput.Member("counts", encoder.counts([previewInstalls, contaminated, multiVariantUnits]))]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> CampaignStats {
        let values = try decoder.integers("counts", count: 3)
        return CampaignStats(previewInstalls: values[0], contaminated: values[1], multiVariantUnits: values[2])
    }
}
