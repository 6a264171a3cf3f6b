/// The counts of one campaign's row of `attribution.csv` (also used for the totals).
public struct AttributionCounts: Sendable, Equatable {
    public var clicks = 0
    public var storeClicks = 0
    public var appClicks = 0
    public var opens = 0
    public var openRetries = 0
    public var openConflicts = 0
    public var attributed = 0
    public var bindRetries = 0
    public var bindConflicts = 0

    public init() {}

    /// attributed / clicks, nil when there are no clicks.
    public var attributionRate: Double? {
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
    }
}

/// Attribution joined and counted: rows by campaign (byte-wise order) and the totals of SPEC section 3.
public struct AttributionResult: Sendable, Equatable {
    /// The campaign of a click without `utm_campaign`.
    public static let noCampaign = ByteString("(none)")

    public var campaigns: [(campaign: ByteString, counts: AttributionCounts)]
    public var totals: AttributionCounts
    /// Lines of a click after its first (its earliest line is the click).
    public var duplicateClicks = 0
    /// Opens whose original names a `clickId` that no click has.
    public var orphanOpens = 0
    /// Opens whose original has no `clickId`.
    public var unresolvedOpens = 0
    /// Bindings whose `clickId` no click has.
    public var orphanBinds = 0

    public static func == (lhs: AttributionResult, rhs: AttributionResult) -> Bool {
        lhs.campaigns.elementsEqual(rhs.campaigns) { $0.campaign == $1.campaign && $0.counts == $1.counts }
            && lhs.totals == rhs.totals && lhs.duplicateClicks == rhs.duplicateClicks
            && lhs.orphanOpens == rhs.orphanOpens && lhs.unresolvedOpens == rhs.unresolvedOpens
            && lhs.orphanBinds == rhs.orphanBinds
    }
}

extension AttributionState {
    /// Joins opens and bindings to their clicks and counts each campaign.
    public func result(symbols: SymbolTable) -> AttributionResult {
        var countsByCampaign: [Symbol?: AttributionCounts] = [:]
        var result = AttributionResult(campaigns: [], totals: AttributionCounts())
        for record in clicks.records {
            countsByCampaign[record.earliest.utm.campaign, default: AttributionCounts()].countClick(route: record.earliest.route)
            result.duplicateClicks += record.lines - 1
        }
        for record in opens.records {
            guard let clickId = record.original.clickId else {
                result.unresolvedOpens += 1
                continue
            }
            guard let click = clicks[clickId] else {
                result.orphanOpens += 1
                continue
            }
            countsByCampaign[click.earliest.utm.campaign]!.countOpen(record)
        }
        for (clickId, record) in zip(bindings.keys, bindings.records) {
            guard let click = clicks[clickId] else {
                result.orphanBinds += 1
                continue
            }
            countsByCampaign[click.earliest.utm.campaign]!.countBinding(record)
        }
        var named: [ByteString: AttributionCounts] = [:]
        for (campaign, counts) in countsByCampaign {
            named[campaign.map(symbols.string) ?? AttributionResult.noCampaign, default: AttributionCounts()].add(counts)
        }
        result.campaigns = named.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (_, counts) in result.campaigns { result.totals.add(counts) }
        return result
    }
}

private extension AttributionCounts {
    mutating func countClick(route: Route) {
        clicks += 1
        switch route {
        case .store: storeClicks += 1
        case .app: appClicks += 1
        }
    }

    mutating func countOpen(_ record: OpenRecord) {
        opens += 1
        openRetries += record.retries
        openConflicts += record.conflicts
    }

    mutating func countBinding(_ record: BindingRecord) {
        attributed += 1
        bindRetries += record.retries
        bindConflicts += record.conflicts
    }
}
