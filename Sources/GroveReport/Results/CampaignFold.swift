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
/// The decision is a value over the campaigns of an analysis known by position (in a store of
/// symbols, or in a list): the analysis makes it from every campaign's weight, then builds
/// rows — names, lift, SRM — only for the kept positions and sums the others as it goes, so no
/// row is built, and no name made, for a campaign that is folded. A report derived from the same
/// campaigns (the daily files) makes the same decision over the same weights.
struct CampaignFold: Sendable {
    /// The name of the campaign that holds the sums of the folded ones.
    static let name = ByteString("(other campaigns)")
    /// `--max-campaigns`'s default.
    static let defaultMaximum = 10_000
    /// At most this many campaigns of a report are drawn on the page, whatever `--max-campaigns`
    /// (docs/PAGE.md): the rest of the report's campaigns are summed there as `(other campaigns)`.
    static let pageMaximum = 1_000

    /// Whether the campaign at each position is kept; nil when every campaign is (no fold).
    private let keeps: [Bool]?
    /// How many campaigns were folded into `(other campaigns)` (0 when none).
    let foldedCount: Int

    /// Keeps every campaign.
    static let none = CampaignFold(keeps: nil, foldedCount: 0)

    private init(keeps: [Bool]?, foldedCount: Int) {
        self.keeps = keeps
        self.foldedCount = foldedCount
    }

    /// Decides over `count` campaigns, each named once: when there are more than `maximum`,
    /// keeps the `maximum` with the largest `weight` (a campaign named like the fold aside),
    /// ties by name byte-wise (`precedes`).
    init<Weight: Comparable>(
        count: Int, maximum: Int, weight: (Int) -> Weight, precedes: (Int, Int) -> Bool,
        isNamedLikeTheFold: (Int) -> Bool
    ) {
        precondition(maximum >= 1, "--max-campaigns is at least 1")
        guard count > maximum else {
            self.init(keeps: nil, foldedCount: 0)
            return
        }
        var ranked = (0..<count).filter { !isNamedLikeTheFold($0) }
        ranked.sort { weight($0) != weight($1) ? weight($0) > weight($1) : precedes($0, $1) }
        var keeps = [Bool](repeating: false, count: count)
        for position in ranked.prefix(maximum) { keeps[position] = true }
        self.init(keeps: keeps, foldedCount: count - min(maximum, ranked.count))
    }

    /// The same decision over a list of campaigns by name.
    init<Weight: Comparable>(_ campaigns: [(name: ByteString, weight: Weight)], maximum: Int) {
        self.init(
            count: campaigns.count, maximum: maximum, weight: { campaigns[$0].weight },
            precedes: { campaigns[$0].name < campaigns[$1].name }, isNamedLikeTheFold: { campaigns[$0].name == Self.name })
    }

    /// Whether the report sums the campaign at `position` into `(other campaigns)` instead of naming it.
    func folds(_ position: Int) -> Bool {
        keeps.map { !$0[position] } ?? false
    }

    /// Whether any campaign is folded, so the report has an `(other campaigns)` row.
    var isFolding: Bool { keeps != nil }

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

    /// Puts `(other campaigns)` in its place by name among `rows`, sorted byte-wise by campaign
    /// and holding no row of that name.
    static func insert<Row>(_ row: Row, into rows: inout [Row], campaign: (Row) -> ByteString) {
        rows.insert(row, at: rows.firstIndex { campaign($0) > name } ?? rows.endIndex)
    }
}

/// The campaigns a run's analyses folded: `summary.json`'s `folded_campaigns`.
struct FoldedCampaigns: Sendable, Equatable {
    var attribution = 0
    var exposure = 0
}
