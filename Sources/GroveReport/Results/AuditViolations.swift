/// The nine violations of the preview audit (docs/AUDIT.md, Violations).
public struct AuditViolations: Sendable, Equatable {
    var previewGrant = 0
    var missingCustomer = 0
    /// Preview customer-unit decisions without `customerId`, consent regardless: a pin never
    /// bypasses identification.
    var previewUnidentifiedCustomer = 0
    var previewOnDisabledCampaign = 0
    var decisionOnDisabledCampaign = 0
    /// The preview-link checks: per campaign those of its paired links, in the totals every link's.
    var links = LinkViolations()

    /// The nine names, in report order: every output that lists violations takes them from here.
    static let names = [
        "preview_grant", "missing_customer", "preview_unidentified_customer", "preview_on_disabled_campaign",
        "decision_on_disabled_campaign", "invalid_link_accepted", "wrong_link_outcome", "paired_while_denied", "pin_too_long",
    ]

    public var total: Int {
        previewGrant + missingCustomer + previewUnidentifiedCustomer + previewOnDisabledCampaign + decisionOnDisabledCampaign
            + links.total
    }

    /// The violations with their report names, in report order.
    var named: [(name: String, count: Int)] {
        Array(zip(Self.names, [previewGrant, missingCustomer, previewUnidentifiedCustomer, previewOnDisabledCampaign,
                               decisionOnDisabledCampaign] + links.counts))
    }

    mutating func add(_ other: AuditViolations) {
        previewGrant += other.previewGrant
        missingCustomer += other.missingCustomer
        previewUnidentifiedCustomer += other.previewUnidentifiedCustomer
        previewOnDisabledCampaign += other.previewOnDisabledCampaign
        decisionOnDisabledCampaign += other.decisionOnDisabledCampaign
        links.add(other.links)
    }
}
