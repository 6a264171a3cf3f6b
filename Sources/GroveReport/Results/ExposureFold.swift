/// The sums of the campaigns `CampaignFold` folds, in exposure and in the preview audit
/// (docs/OUTPUTS.md, Names from the logs are bounded), and the same fold applied again to
/// results, for the page.

/// The folded campaigns of exposure as one campaign `(other campaigns)` with one row, variant
/// `(all)`: their rows' counts and their exclusion counters summed, rates from the sums, no
/// lift, interval or SRM, not a control, and no health warning (docs/DECISIONS.md).
struct ExposureFoldSums {
    /// The variant of the one row of `(other campaigns)`.
    static let variant = ByteString("(all)")

    private var campaign = ExposureCampaign(
        campaign: CampaignFold.name, srmPValue: nil, missingCustomer: 0, previewContaminated: 0, multiVariantUnits: 0,
        variants: [ExposureRow(campaign: CampaignFold.name, variant: variant)])

    /// Adds a folded campaign's rows and counters; its lift and SRM fields are not read.
    mutating func add(_ folded: ExposureCampaign) {
        campaign.missingCustomer += folded.missingCustomer
        campaign.previewContaminated += folded.previewContaminated
        campaign.multiVariantUnits += folded.multiVariantUnits
        for row in folded.variants {
            add(units: row.units, converted: row.convertedUnits, orders: row.orders, revenue: row.revenueMinor, impressions: row.impressions)
            campaign.variants[0].days.add(row.days)
        }
    }

    /// Adds a row of a folded campaign.
    mutating func add(_ counts: VariantCounts) {
        add(units: counts.units, converted: counts.convertedUnits, orders: counts.orders, revenue: counts.revenueMinor,
            impressions: counts.impressions)
        campaign.variants[0].days.add(counts.days)
    }

    /// Adds a folded campaign's exclusion counters.
    mutating func add(missingCustomer: Int, stats: CampaignStats) {
        campaign.missingCustomer += missingCustomer
        campaign.previewContaminated += stats.contaminated
        campaign.multiVariantUnits += stats.multiVariantUnits
    }

    private mutating func add(units: Int, converted: Int, orders: Int, revenue: Int128, impressions: Int) {
        campaign.variants[0].units += units
        campaign.variants[0].convertedUnits += converted
        campaign.variants[0].orders += orders
        campaign.variants[0].revenueMinor += revenue
        campaign.variants[0].impressions += impressions
    }

    /// Puts `(other campaigns)`, standing for `folded` campaigns, in its place by name among
    /// `campaigns`, which are sorted byte-wise and hold no campaign of that name.
    func insert(into campaigns: inout [ExposureCampaign], folded: Int) {
        var campaign = campaign
        campaign.foldedCampaigns = folded
        CampaignFold.insert(campaign, into: &campaigns) { $0.campaign }
    }
}

extension [ExposureCampaign] {
    /// The campaigns with at most `maximum` named, those with the fewest units summed into
    /// `(other campaigns)`; `earlier` campaigns were already folded into a row of that name.
    /// Returns the campaigns and how many are folded in all.
    func folded(maximum: Int, earlier: Int) -> (campaigns: [ExposureCampaign], folded: Int) {
        let fold = CampaignFold(map { ($0.campaign, $0.variants.reduce(0) { $0 + $1.units }) }, maximum: maximum)
        guard fold.isFolding else { return (self, earlier) }
        var others = ExposureFoldSums()
        var kept: [ExposureCampaign] = []
        for (position, campaign) in enumerated() {
            if fold.folds(position) { others.add(campaign) } else { kept.append(campaign) }
        }
        let folded = CampaignFold.count(afterFolding: earlier, fold)
        others.insert(into: &kept, folded: folded)
        return (kept, folded)
    }
}

/// What the audit keeps first when it folds: the campaigns with the most violations, then the
/// most preview events and pairings (ties by name, as `CampaignFold` breaks them).
struct AuditFoldWeight: Comparable {
    var violations: Int
    var previewEvents: Int

    init(_ campaign: AuditCampaign) {
        violations = campaign.violations.total
        previewEvents = campaign.previewDecisions + campaign.previewImpressions + campaign.previewGrants
            + campaign.previewPairings
    }

    static func < (lhs: AuditFoldWeight, rhs: AuditFoldWeight) -> Bool {
        (lhs.violations, lhs.previewEvents) < (rhs.violations, rhs.previewEvents)
    }
}

extension AuditCampaign {
    /// Adds a folded campaign's counts and violations.
    mutating func add(_ folded: AuditCampaign) {
        previewDecisions += folded.previewDecisions
        previewImpressions += folded.previewImpressions
        previewGrants += folded.previewGrants
        previewPairings += folded.previewPairings
        previewInstalls += folded.previewInstalls
        previewContaminated += folded.previewContaminated
        violations.add(folded.violations)
    }
}

extension PreviewAudit {
    /// The audit with at most `maximum` campaigns named, the others summed into `(other
    /// campaigns)`; totals and violations are the same.
    func folded(maximum: Int) -> PreviewAudit {
        let fold = CampaignFold(campaigns.map { ($0.campaign, AuditFoldWeight($0)) }, maximum: maximum)
        guard fold.isFolding else { return self }
        var audit = self
        var others = AuditCampaign(campaign: CampaignFold.name)
        audit.campaigns = []
        for (position, campaign) in campaigns.enumerated() {
            if fold.folds(position) { others.add(campaign) } else { audit.campaigns.append(campaign) }
        }
        audit.foldedCampaigns = CampaignFold.count(afterFolding: foldedCampaigns, fold)
        others.foldedCampaigns = audit.foldedCampaigns
        CampaignFold.insert(others, into: &audit.campaigns) { $0.campaign }
        return audit
    }
}
