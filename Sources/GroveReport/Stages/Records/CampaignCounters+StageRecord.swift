/// `campaign_counters`, keyed by campaign: preview counts, decisions, missing customers (not
/// preview, and preview: `previewUnidentifiedCustomer`, new in format 4), pairings and the link
/// violations of paired links.
extension CampaignCounters: KeyedStageRecord {
    static let kind = "campaign_counters"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<CampaignCounters>> { \.exposure.counters }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("previewDecisions", .integer(previewDecisions)),
            JSONOutput.Member("previewImpressions", .integer(previewImpressions)),
            JSONOutput.Member("previewGrants", .integer(previewGrants)),
            JSONOutput.Member("decisions", .integer(decisions)),
            JSONOutput.Member("missingCustomer", .integer(missingCustomer)),
            JSONOutput.Member("previewUnidentifiedCustomer", .integer(previewUnidentifiedCustomer)),
            JSONOutput.Member("previewPairings", .integer(previewPairings)),
            JSONOutput.Member("linkViolations", encoder.counts(linkViolations.counts)),
        ]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> CampaignCounters {
        var counters = CampaignCounters()
        counters.previewDecisions = try decoder.integer("previewDecisions")
        counters.previewImpressions = try decoder.integer("previewImpressions")
        counters.previewGrants = try decoder.integer("previewGrants")
        counters.decisions = try decoder.integer("decisions")
        counters.missingCustomer = try decoder.integer("missingCustomer")
        counters.previewUnidentifiedCustomer = try decoder.integer("previewUnidentifiedCustomer")
        counters.previewPairings = try decoder.integer("previewPairings")
        counters.linkViolations = LinkViolations(counts: try decoder.integers("linkViolations", count: 4))
        return counters
    }
}
