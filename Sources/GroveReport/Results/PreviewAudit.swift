/// One campaign of `preview_audit.json`.
struct AuditCampaign: Sendable, Equatable {
    var campaign: ByteString
    var previewDecisions = 0
    var previewImpressions = 0
    var previewGrants = 0
    /// `preview_link`s with outcome `paired` for the campaign.
    var previewPairings = 0
    var previewInstalls = 0
    var previewContaminated = 0
    var violations = AuditViolations()
    /// For `(other campaigns)`, the number of campaigns summed into it; 0 for a campaign of the logs.
    var foldedCampaigns = 0
}

/// The proof that preview traffic stayed out of the analysis.
public struct PreviewAudit: Sendable, Equatable {
    var campaigns: [AuditCampaign]
    /// Preview events by Grona type, indexed like `EventType.grona`.
    var previewTotals: [Int]
    /// Consent-denied, not preview, events by Grona type.
    var consentDeniedTotals: [Int]
    /// Every accepted `preview_link` by kind and outcome.
    var previewLinks: PreviewLinkCounts
    public var violations: AuditViolations
    /// Preview or consent-denied events that reached the analysis, counted by the analysis itself.
    public var leakCheck: Int
    /// Campaigns summed into `(other campaigns)` rather than named (`--max-campaigns`).
    var foldedCampaigns = 0
}
