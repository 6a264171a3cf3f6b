/// The violations of an audit as CI reports list them: for each violation name with a count above
/// 0, the campaigns that have it and the events no campaign accounts for (preview links that
/// paired nothing carry no campaign).
struct AuditFinding {
    var violation: String
    var total: Int
    /// In the audit's campaign order.
    var campaigns: [(campaign: ByteString, count: Int)]
    /// `total` minus the campaigns' counts.
    var withoutCampaign: Int

    /// One finding per violation name with a count above 0, in report order.
    static func all(_ audit: PreviewAudit) -> [AuditFinding] {
        audit.violations.named.enumerated().compactMap { index, violation in
            guard violation.count > 0 else { return nil }
            let campaigns = audit.campaigns.compactMap { campaign -> (ByteString, Int)? in
                let count = campaign.violations.named[index].count
                return count > 0 ? (campaign.campaign, count) : nil
            }
            return AuditFinding(
                violation: violation.name, total: violation.count, campaigns: campaigns,
                withoutCampaign: violation.count - campaigns.reduce(0) { $0 + $1.1 })
        }
    }

    /// `3 events: spring (2), onboarding (1)`, naming the events without a campaign last.
    var summary: String {
        var parts = campaigns.map { "\($0.campaign) (\($0.count))" }
        if withoutCampaign > 0 { parts.append("no campaign (\(withoutCampaign))") }
        return "\(total) events: " + parts.joined(separator: ", ")
    }
}
