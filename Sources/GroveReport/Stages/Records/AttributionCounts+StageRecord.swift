/// `campaign_attribution`, keyed by campaign: the counts of an `attribution.csv` row.
extension AttributionCounts: KeyedStageRecord {
    static let kind = "campaign_attribution"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<AttributionCounts>> { \.joins.campaignAttribution }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("counts", encoder.counts([clicks, storeClicks, appClicks, opens, openRetries, openConflicts,
                                                         attributed, bindRetries, bindConflicts])),
            JSONOutput.Member("days", encoder.days(days, width: 3)),
        ]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> AttributionCounts {
        let values = try decoder.integers("counts", count: 9)
        var counts = AttributionCounts()
        (counts.clicks, counts.storeClicks, counts.appClicks, counts.opens) = (values[0], values[1], values[2], values[3])
        (counts.openRetries, counts.openConflicts, counts.attributed) = (values[4], values[5], values[6])
        (counts.bindRetries, counts.bindConflicts) = (values[7], values[8])
        counts.days = try decoder.days("days", width: 3)
        return counts
    }
}
