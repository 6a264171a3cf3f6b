/// Renders `exposure.csv` and `exposure.json` (docs/EXPOSURE.md).
///
/// `exposure.json` carries the health warnings twice: in each campaign object (`"warnings"`,
/// names sorted byte-wise) and at the top level as one `{"campaign", "warning"}` object per
/// campaign and warning, for a reader (or `jq`) who only wants to know what to distrust.
enum ExposureReport {
    static let header = [
        "campaign", "variant", "control", "units", "converted_units", "conversion_rate", "orders",
        "revenue_minor", "revenue_per_unit", "impressions", "abs_diff", "rel_lift", "ci_low", "ci_high",
        "p_value", "srm_p_value", "revenue_abs_diff", "revenue_ci_low", "revenue_ci_high", "revenue_p_value",
        "seq_ci_low", "seq_ci_high", "seq_p_value",
    ]

    static func csv(_ campaigns: [ExposureCampaign]) -> [UInt8] {
        var table = CSVTable(header: header)
        for row in rows(campaigns) { table.append(row) }
        return table.rendered()
    }

    /// The CSV rows' cells in header order (also what the state's history keeps).
    static func rows(_ campaigns: [ExposureCampaign]) -> [[JSONOutput]] {
        campaigns.flatMap { $0.variants.map(cells) }
    }

    static func json(_ campaigns: [ExposureCampaign]) -> [UInt8] {
        var flagged: [JSONOutput] = []
        let list = campaigns.map { campaign in
            let warnings = campaign.warnings
            for warning in warnings {
                flagged.append(.object([
                    JSONOutput.Member("campaign", .string(campaign.campaign)),
                    JSONOutput.Member("warning", .text(warning.name)),
                ]))
            }
            return JSONOutput.object([
                JSONOutput.Member("campaign", .string(campaign.campaign)),
                JSONOutput.Member("srm_p_value", .decimal(campaign.srmPValue)),
                JSONOutput.Member("missing_customer", .integer(campaign.missingCustomer)),
                JSONOutput.Member("preview_contaminated", .integer(campaign.previewContaminated)),
                JSONOutput.Member("multi_variant_units", .integer(campaign.multiVariantUnits)),
                JSONOutput.Member("warnings", .array(warnings.map { .text($0.name) })),
                JSONOutput.Member("variants", .array(campaign.variants.map { row in
                    .object(zip(header, cells(row)).map { JSONOutput.Member($0, $1) })
                })),
            ])
        }
        return JSONOutput.object([
            JSONOutput.Member("campaigns", .array(list)),
            JSONOutput.Member("warnings", .array(flagged)),
        ]).rendered()
    }

    /// The row's values in header order, typed once for both formats.
    private static func cells(_ row: ExposureRow) -> [JSONOutput] {
        [
            .string(row.campaign), .string(row.variant), .bool(row.control), .integer(row.units),
            .integer(row.convertedUnits), .decimal(row.conversionRate), .integer(row.orders),
            .bigInteger(row.revenueMinor), .decimal(row.revenuePerUnit), .integer(row.impressions),
            .decimal(row.absDiff), .decimal(row.relLift), .decimal(row.ciLow), .decimal(row.ciHigh),
            .decimal(row.pValue), .decimal(row.srmPValue), .decimal(row.revenueAbsDiff), .decimal(row.revenueCiLow),
            .decimal(row.revenueCiHigh), .decimal(row.revenuePValue), .decimal(row.seqCiLow), .decimal(row.seqCiHigh),
            .decimal(row.seqPValue),
        ]
    }
}
