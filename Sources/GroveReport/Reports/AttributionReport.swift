/// Renders `attribution.csv` and `attribution.json` (docs/ATTRIBUTION.md).
enum AttributionReport {
    static let header = [
        "campaign", "clicks", "store_clicks", "app_clicks", "opens", "open_retries", "open_conflicts",
        "attributed", "bind_retries", "bind_conflicts", "attribution_rate",
    ]

    static func csv(_ result: AttributionResult) -> [UInt8] {
        var table = CSVTable(header: header)
        for row in rows(result) { table.append(row) }
        return table.rendered()
    }

    /// The CSV rows' cells in header order (also what the state's history keeps).
    static func rows(_ result: AttributionResult) -> [[JSONOutput]] {
        result.campaigns.map { campaign, counts in [.string(campaign)] + cells(counts) }
    }

    static func json(_ result: AttributionResult) -> [UInt8] {
        let campaigns = result.campaigns.map { campaign, counts in
            JSONOutput.object([JSONOutput.Member("campaign", .string(campaign))] + members(counts))
        }
        let totals = members(result.totals) + [
            JSONOutput.Member("duplicate_clicks", .integer(result.duplicateClicks)),
            JSONOutput.Member("orphan_opens", .integer(result.orphanOpens)),
            JSONOutput.Member("unresolved_opens", .integer(result.unresolvedOpens)),
            JSONOutput.Member("orphan_binds", .integer(result.orphanBinds)),
            JSONOutput.Member("binds_outside_window", .integer(result.bindsOutsideWindow)),
        ]
        return JSONOutput.object([
            JSONOutput.Member("campaigns", .array(campaigns)),
            JSONOutput.Member("totals", .object(totals)),
        ]).rendered()
    }

    /// The count columns' values in header order, typed once for both formats.
    private static func cells(_ counts: AttributionCounts) -> [JSONOutput] {
        [
            .integer(counts.clicks), .integer(counts.storeClicks), .integer(counts.appClicks),
            .integer(counts.opens), .integer(counts.openRetries), .integer(counts.openConflicts),
            .integer(counts.attributed), .integer(counts.bindRetries), .integer(counts.bindConflicts),
            .decimal(counts.attributionRate),
        ]
    }

    private static func members(_ counts: AttributionCounts) -> [JSONOutput.Member] {
        zip(header.dropFirst(), cells(counts)).map { JSONOutput.Member($0, $1) }
    }
}
