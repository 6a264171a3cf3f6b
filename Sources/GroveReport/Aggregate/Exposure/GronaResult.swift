/// How far preview exclusion reaches (docs/EXPOSURE.md, Exclusions, rule 2).
public enum PreviewScope: String, Sendable, CaseIterable {
    /// Every event of a campaign from a preview install of that campaign is excluded.
    case unit
    /// Only the flagged events are excluded.
    case event
}

/// One row of `exposure.csv`: a campaign's variant.
public struct ExposureRow: Sendable, Equatable {
    public var campaign: ByteString
    public var variant: ByteString
    public var control = false
    public var units = 0
    public var convertedUnits = 0
    public var orders = 0
    /// Summed in 128 bits: 2^53 − 1 per order times many orders must not overflow.
    public var revenueMinor: Int128 = 0
    public var impressions = 0
    public var absDiff: Double?
    public var relLift: Double?
    public var ciLow: Double?
    public var ciHigh: Double?
    public var pValue: Double?
    public var srmPValue: Double?

    public var conversionRate: Double? { units == 0 ? nil : Double(convertedUnits) / Double(units) }
    public var revenuePerUnit: Double? { units == 0 ? nil : Double(revenueMinor) / Double(units) }
}

/// One campaign of `exposure.json`: its rows and its exclusion counters.
public struct ExposureCampaign: Sendable, Equatable {
    public var campaign: ByteString
    public var srmPValue: Double?
    public var missingCustomer: Int
    public var previewContaminated: Int
    public var multiVariantUnits: Int
    public var variants: [ExposureRow]
}

/// The eight violations of the preview audit (docs/AUDIT.md, Violations).
public struct AuditViolations: Sendable, Equatable {
    public var previewGrant = 0
    public var missingCustomer = 0
    public var previewOnDisabledCampaign = 0
    public var decisionOnDisabledCampaign = 0
    /// The preview-link checks: per campaign those of its paired links, in the totals every link's.
    public var links = LinkViolations()

    /// The eight names, in report order.
    public static let names = [
        "preview_grant", "missing_customer", "preview_on_disabled_campaign", "decision_on_disabled_campaign",
        "invalid_link_accepted", "wrong_link_outcome", "paired_while_denied", "pin_too_long",
    ]

    public var total: Int {
        previewGrant + missingCustomer + previewOnDisabledCampaign + decisionOnDisabledCampaign + links.total
    }

    /// The violations with their report names, in report order.
    public var named: [(name: String, count: Int)] {
        Array(zip(Self.names, [previewGrant, missingCustomer, previewOnDisabledCampaign, decisionOnDisabledCampaign]
            + links.counts))
    }

    mutating func add(_ other: AuditViolations) {
        previewGrant += other.previewGrant
        missingCustomer += other.missingCustomer
        previewOnDisabledCampaign += other.previewOnDisabledCampaign
        decisionOnDisabledCampaign += other.decisionOnDisabledCampaign
        links.add(other.links)
    }
}

/// One campaign of `preview_audit.json`.
public struct AuditCampaign: Sendable, Equatable {
    public var campaign: ByteString
    public var previewDecisions = 0
    public var previewImpressions = 0
    public var previewGrants = 0
    /// `preview_link`s with outcome `paired` for the campaign.
    public var previewPairings = 0
    public var previewInstalls = 0
    public var previewContaminated = 0
    public var violations = AuditViolations()
}

/// The proof that preview traffic stayed out of the analysis.
public struct PreviewAudit: Sendable, Equatable {
    public var campaigns: [AuditCampaign]
    /// Preview events by Grona type, indexed like `EventType.grona`.
    public var previewTotals: [Int]
    /// Consent-denied, not preview, events by Grona type.
    public var consentDeniedTotals: [Int]
    /// Every accepted `preview_link` by kind and outcome.
    public var previewLinks: PreviewLinkCounts
    public var violations: AuditViolations
    /// Preview or consent-denied events that reached the analysis, counted by the analysis itself.
    public var leakCheck: Int
}

/// Exposure rows and the preview audit, computed from a merged `GronaState`.
public struct GronaResult: Sendable, Equatable {
    public var exposure: [ExposureCampaign]
    public var audit: PreviewAudit
}
