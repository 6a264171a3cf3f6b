/// Which campaigns a report names (docs/OUTPUTS.md, Names from the logs are bounded): the one
/// place where folding is decided, for every report that lists campaigns — attribution,
/// exposure, the preview audit, the page, and the daily files to come.
///
/// Campaign names come from anyone who can craft a link or an SDK event, so a report names at
/// most `maximum` of them (`--max-campaigns`): the `maximum` with the largest weight (clicks in
/// attribution, total units in exposure), ties by name byte-wise, and the counts of the rest are
/// summed into one campaign named `(other campaigns)`. A campaign of the logs that is itself
/// named `(other campaigns)` is always among the folded ones when there is a fold, so no report
/// names two campaigns alike; without a fold it is listed like any other.
///
/// The decision is a value: an analysis makes it from the light (name, weight) pairs of all its
/// campaigns, then builds full rows only for the kept ones and sums the others as it goes, so no
/// per-campaign row is built for a campaign that is folded. A report derived from the same
/// campaigns (the daily files) asks the same decision `folds(_:)` for each of its rows.
struct CampaignFold: Sendable {
    /// The name of the campaign that holds the sums of the folded ones.
    static let name = ByteString("(other campaigns)")
    /// `--max-campaigns`'s default.
    static let defaultMaximum = 10_000
    /// At most this many campaigns of a report are drawn on the page, whatever `--max-campaigns`
    /// (docs/PAGE.md): the rest of the report's campaigns are summed there as `(other campaigns)`.
    static let pageMaximum = 1_000

    /// The campaigns kept when some are folded; nil when the report names every campaign.
    private let kept: Set<ByteString>?
    /// How many campaigns were folded into `(other campaigns)` (0 when none).
    let foldedCount: Int

    /// Keeps every campaign.
    static let none = CampaignFold(kept: nil, foldedCount: 0)

    private init(kept: Set<ByteString>?, foldedCount: Int) {
        self.kept = kept
        self.foldedCount = foldedCount
    }

    /// Decides over every campaign of a report (each named once): when there are more than
    /// `maximum`, keeps the `maximum` with the largest `weight`, ties by name byte-wise.
    init<Weight: Comparable>(_ campaigns: [(name: ByteString, weight: Weight)], maximum: Int) {
        precondition(maximum >= 1, "--max-campaigns is at least 1")
        guard campaigns.count > maximum else {
            self.init(kept: nil, foldedCount: 0)
            return
        }
        let ranked = campaigns.filter { $0.name != Self.name }.sorted {
            $0.weight != $1.weight ? $0.weight > $1.weight : $0.name < $1.name
        }
        let kept = Set(ranked.prefix(maximum).map(\.name))
        self.init(kept: kept, foldedCount: campaigns.count - kept.count)
    }

    /// Whether the report sums `campaign` into `(other campaigns)` instead of naming it.
    func folds(_ campaign: ByteString) -> Bool {
        kept.map { !$0.contains(campaign) } ?? false
    }

    /// Whether any campaign is folded, so the report has an `(other campaigns)` row.
    var isFolding: Bool { kept != nil }

    /// The number of campaigns behind `rows` rows of which one, when `folded` > 0, is `(other
    /// campaigns)` standing for `folded` campaigns.
    static func campaignCount(rows: Int, folded: Int) -> Int {
        folded > 0 ? rows - 1 + folded : rows
    }

    /// The campaigns summed into `(other campaigns)` once `fold` is applied to rows of which
    /// `earlier` were already folded (the page folds the reports' rows again): the earlier fold
    /// row, always among the folded, stands for its `earlier` campaigns, not for one.
    static func count(afterFolding earlier: Int, _ fold: CampaignFold) -> Int {
        earlier + fold.foldedCount - (earlier > 0 && fold.isFolding ? 1 : 0)
    }
}

/// The campaigns a run's analyses folded: `summary.json`'s `folded_campaigns`.
struct FoldedCampaigns: Sendable, Equatable {
    var attribution = 0
    var exposure = 0
}
