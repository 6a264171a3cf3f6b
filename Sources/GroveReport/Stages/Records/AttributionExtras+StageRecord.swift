/// `attribution_totals`: duplicate clicks, orphan and unresolved opens, orphan bindings.
extension AttributionExtras: SingleStageRecord {
    static let kind = "attribution_totals"
    static var slot: WritableKeyPath<PartialState, AttributionExtras> { \.joins.attributionExtras }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [JSONOutput.Member("counts", encoder.counts([duplicateClicks, orphanOpens, unresolvedOpens, orphanBinds]))]
    }

    static func decoded(_ decoder: inout RecordDecoder) throws(RecordError) -> AttributionExtras {
        let values = try decoder.integers("counts", count: 4)
        return AttributionExtras(
            duplicateClicks: values[0], orphanOpens: values[1], unresolvedOpens: values[2], orphanBinds: values[3])
    }
}
