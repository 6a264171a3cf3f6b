/// Per-campaign counts the preview audit needs, all over accepted events.
struct CampaignCounters: MergeableRecord {
    var previewDecisions = 0
    var previewImpressions = 0
    var previewGrants = 0
    /// Every accepted decision, preview and consent-denied ones included.
    var decisions = 0
    /// Customer-unit decisions (not preview, not denied) without `customerId`.
    var missingCustomer = 0
    /// Preview customer-unit decisions without `customerId`, consent regardless.
    var previewUnidentifiedCustomer = 0
    /// `preview_link`s with outcome `paired` for the campaign.
    var previewPairings = 0
    /// The link violations of the campaign's paired links.
    var linkViolations = LinkViolations()

    var previewEvents: Int { previewDecisions + previewImpressions + previewGrants }

    func translated(_ translation: SymbolTranslation) -> CampaignCounters { self }

    mutating func merge(_ other: CampaignCounters, symbols: SymbolTable) {
        previewDecisions += other.previewDecisions
        previewImpressions += other.previewImpressions
        previewGrants += other.previewGrants
        decisions += other.decisions
        missingCustomer += other.missingCustomer
        previewUnidentifiedCustomer += other.previewUnidentifiedCustomer
        previewPairings += other.previewPairings
        linkViolations.add(other.linkViolations)
    }
}
