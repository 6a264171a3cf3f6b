/// How far preview exclusion reaches (docs/EXPOSURE.md, Exclusions, rule 2).
public enum PreviewScope: String, Sendable, CaseIterable {
    /// Every event of a campaign from a preview install of that campaign is excluded.
    case unit
    /// Only the flagged events are excluded.
    case event
}

/// One row of `exposure.csv`: a campaign's variant.
struct ExposureRow: Sendable, Equatable {
    var campaign: ByteString
    var variant: ByteString
    var control = false
    var units = 0
    var convertedUnits = 0
    var orders = 0
    /// Summed in 128 bits: 2^53 − 1 per order times many orders must not overflow.
    var revenueMinor: Int128 = 0
    /// Σr² over the units (not written: the revenue interval's input).
    var revenueSquares = SquareSum()
    /// By day: (units first exposed, converted units first converting, 0), for `exposure_daily.csv`.
    var days = DailyTallies()
    var impressions = 0
    var absDiff: Double?
    var relLift: Double?
    var ciLow: Double?
    var ciHigh: Double?
    var pValue: Double?
    var srmPValue: Double?
    var revenueAbsDiff: Double?
    var revenueCiLow: Double?
    var revenueCiHigh: Double?
    var revenuePValue: Double?
    var seqCiLow: Double?
    var seqCiHigh: Double?
    var seqPValue: Double?

    var conversionRate: Double? { units == 0 ? nil : Double(convertedUnits) / Double(units) }
    var revenuePerUnit: Double? { units == 0 ? nil : Double(revenueMinor) / Double(units) }
}

/// One campaign of `exposure.json`: its rows and its exclusion counters.
public struct ExposureCampaign: Sendable, Equatable {
    var campaign: ByteString
    var srmPValue: Double?
    var missingCustomer: Int
    var previewContaminated: Int
    var multiVariantUnits: Int
    var variants: [ExposureRow]
    /// For `(other campaigns)`, the number of campaigns summed into it; 0 for a campaign of the logs.
    var foldedCampaigns = 0
}

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

/// Exposure rows and the preview audit, computed from a merged `ExposureState`.
public struct ExposureResult: Sendable, Equatable {
    public var campaigns: [ExposureCampaign]
    /// T of the always-valid interval, for `exposure_daily.csv`.
    var sequentialTuning = SequentialInterval.defaultTuning
    public var audit: PreviewAudit
    /// Campaigns summed into `(other campaigns)` rather than named (`--max-campaigns`).
    var foldedCampaigns = 0
}
