/// The counts of one campaign's row of `attribution.csv` (also used for the totals).
struct AttributionCounts: Sendable, Equatable {
    var clicks = 0
    var storeClicks = 0
    var appClicks = 0
    var opens = 0
    var openRetries = 0
    var openConflicts = 0
    var attributed = 0
    var bindRetries = 0
    var bindConflicts = 0
    /// By the day of the click's earliest line: (clicks, opens, attributed), for `attribution_daily.csv`.
    var days = DailyTallies()

    init() {}

    /// attributed / clicks, nil when there are no clicks.
    var attributionRate: Double? {
        clicks == 0 ? nil : Double(attributed) / Double(clicks)
    }

    mutating func add(_ other: AttributionCounts) {
        clicks += other.clicks
        storeClicks += other.storeClicks
        appClicks += other.appClicks
        opens += other.opens
        openRetries += other.openRetries
        openConflicts += other.openConflicts
        attributed += other.attributed
        bindRetries += other.bindRetries
        bindConflicts += other.bindConflicts
        days.add(other.days)
    }
}

/// Attribution joined and counted: rows by campaign (byte-wise order) and the totals of docs/ATTRIBUTION.md.
struct AttributionResult: Sendable, Equatable {
    var campaigns: [(campaign: ByteString, counts: AttributionCounts)]
    var totals: AttributionCounts
    /// Clicks seen on more than one line, each counted once (docs/ATTRIBUTION.md: "each counted once per
    /// distinct openId or clickId").
    var duplicateClicks = 0
    /// Opens whose original names a `clickId` that no click has.
    var orphanOpens = 0
    /// Opens whose original has no `clickId`.
    var unresolvedOpens = 0
    /// Bindings whose `clickId` no click has.
    var orphanBinds = 0
    /// Clicks whose binding is outside `--bind-window`, once per clickId (0 without the option).
    var bindsOutsideWindow = 0
    /// Campaigns summed into `(other campaigns)` rather than named (`--max-campaigns`).
    var foldedCampaigns = 0

    static func == (lhs: AttributionResult, rhs: AttributionResult) -> Bool {
        lhs.campaigns.elementsEqual(rhs.campaigns) { $0.campaign == $1.campaign && $0.counts == $1.counts }
            && lhs.totals == rhs.totals && lhs.duplicateClicks == rhs.duplicateClicks
            && lhs.orphanOpens == rhs.orphanOpens && lhs.unresolvedOpens == rhs.unresolvedOpens
            && lhs.orphanBinds == rhs.orphanBinds && lhs.bindsOutsideWindow == rhs.bindsOutsideWindow
            && lhs.foldedCampaigns == rhs.foldedCampaigns
    }

    /// The rows with at most `maximum` campaigns named, the campaigns with the fewest clicks summed
    /// into `(other campaigns)` (`CampaignFold`); totals are the same.
    func folded(maximum: Int) -> AttributionResult {
        let fold = CampaignFold(campaigns.map { ($0.campaign, $0.counts.clicks) }, maximum: maximum)
        guard fold.isFolding else { return self }
        var result = self
        var others = AttributionCounts()
        result.campaigns = []
        for (position, row) in campaigns.enumerated() {
            if fold.folds(position) { others.add(row.counts) } else { result.campaigns.append(row) }
        }
        CampaignFold.insert((CampaignFold.name, others), into: &result.campaigns) { $0.campaign }
        result.foldedCampaigns = CampaignFold.count(afterFolding: foldedCampaigns, fold)
        return result
    }
}
