/// `audit_totals`: preview and consent-denied totals, the leak check, preview links by kind ×
/// outcome (`links`, 16 counts, kind-major) and every link's violations (`linkViolations`).
extension AuditTotals: SingleStageRecord {
    static let kind = "audit_totals"
    static var slot: WritableKeyPath<PartialState, AuditTotals> { \.exposure.totals }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("preview", encoder.counts(preview)),
            JSONOutput.Member("denied", encoder.counts(consentDenied)),
            JSONOutput.Member("leaked", .integer(leaked)),
            JSONOutput.Member("links", encoder.counts(previewLinks.cells)),
            JSONOutput.Member("linkViolations", encoder.counts(linkViolations.counts)),
        ]
    }

    static func decoded(_ decoder: inout RecordDecoder) throws(RecordError) -> AuditTotals {
        var totals = AuditTotals()
        totals.preview = try decoder.integers("preview", count: EventType.grona.count)
        totals.consentDenied = try decoder.integers("denied", count: EventType.grona.count)
        totals.leaked = try decoder.integer("leaked")
        guard let links = PreviewLinkCounts(cells: try decoder.integers("links", count: PreviewLinkCounts.cellCount)) else {
            throw decoder.failure("links needs one count per kind and outcome")
        }
        totals.previewLinks = links
        totals.linkViolations = LinkViolations(counts: try decoder.integers("linkViolations", count: 4))
        return totals
    }
}
