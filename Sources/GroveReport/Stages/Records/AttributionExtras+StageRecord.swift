/// `attribution_totals`: duplicate clicks, orphan and unresolved opens, orphan bindings, and
/// (format 5) bindings outside `--bind-window`.
extension AttributionExtras: SingleStageRecord {
    static let kind = "attribution_totals"
    static var slot: WritableKeyPath<PartialState, AttributionExtras> { \.joins.attributionExtras }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [JSONOutput.Member("counts", encoder.counts([duplicateClicks, orphanOpens, unresolvedOpens, orphanBinds, bindsOutsideWindow]))]
    }

    static func decoded(_ decoder: inout RecordDecoder) throws(RecordError) -> AttributionExtras {
        let values = try decoder.integers("counts", count: 5)
        return AttributionExtras(
            duplicateClicks: values[0], orphanOpens: values[1], unresolvedOpens: values[2], orphanBinds: values[3],
            bindsOutsideWindow: values[4])
    }
}
