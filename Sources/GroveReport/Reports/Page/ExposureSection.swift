/// Exposure on the page (docs/PAGE.md): per campaign its health warnings as banners, each
/// variant's conversion rate with its 95% interval, and the lift against the control with its
/// interval against a zero line, every drawn number also in the table beside it.
enum ExposureSection {
    /// `folded`: the campaigns summed in `(other campaigns)`, when one of `campaigns` is that sum.
    /// `tuning`: T of the always-valid interval, for the daily band.
    static func write(
        _ campaigns: [ExposureCampaign], folded: Int = 0, openCampaigns: Bool, tuning: Int = SequentialInterval.defaultTuning,
        to page: inout HTMLWriter
    ) {
        page.raw("<section id=\"exposure\">\n<h2>Exposure</h2>\n")
        let flagged = campaigns.filter { !$0.warnings.isEmpty }
        // Folded campaigns have no warnings of their own: count among the named ones.
        let named = folded > 0 ? "the \(campaigns.count - 1) named" : "\(campaigns.count)"
        if campaigns.isEmpty {
            page.raw("<p>No campaign has units.</p>\n")
        } else if flagged.isEmpty {
            page.raw("<div class=\"banner ok\"><strong>No health warnings.</strong>")
            page.text("\(named) campaigns")
            page.raw("</div>\n")
        } else {
            page.raw("<div class=\"banner\"><strong>")
            page.text("\(flagged.count) of \(named) campaigns have health warnings:")
            page.raw("</strong>")
            page.text("their numbers are computed as for every campaign, but should not be trusted as they are.")
            page.raw("</div>\n")
        }
        ReportPage.foldNote(folded, named: campaigns.count - 1, by: "units", to: &page)
        for (index, campaign) in campaigns.enumerated() {
            let warnings = campaign.warnings
            page.raw(openCampaigns ? "<details open id=\"exposure-\(index + 1)\"><summary>" : "<details id=\"exposure-\(index + 1)\"><summary>")
            page.text(campaign.campaign)
            page.raw(" <span class=\"tags\">")
            let units = campaign.variants.reduce(0) { $0 + $1.units }
            page.text("— \(campaign.variants.count) variants, \(units) units" + (campaign.foldedCampaigns > 0 ? ", the sums of \(campaign.foldedCampaigns) campaigns" : ""))
            page.raw("</span>")
            for warning in warnings {
                page.raw("<span class=\"badge warn\">")
                page.text(warning.name)
                page.raw("</span>")
            }
            page.raw("</summary>\n")
            for warning in warnings {
                page.raw("<div class=\"banner\" role=\"note\"><strong>")
                page.text("⚠ \(warning.name)")
                page.raw("</strong>")
                page.text(HealthWarningsText.detail(warning, campaign))
                page.raw("</div>\n")
            }
            page.raw("<div class=\"figures\">")
            page.raw("<div class=\"figure\"><b>")
            page.text(NumberText.pValue(campaign.srmPValue))
            page.raw("</b><span>SRM p-value</span></div>")
            RunSection.figure(&page, campaign.multiVariantUnits, "multi-variant units")
            RunSection.figure(&page, campaign.missingCustomer, "missing customer")
            RunSection.figure(&page, campaign.previewContaminated, "preview contaminated")
            page.raw("</div>\n")
            table(campaign, to: &page)
            rateChart(campaign, to: &page)
            liftChart(campaign, to: &page)
            revenueChart(campaign, to: &page)
            DailyCharts.exposure(
                campaign, tuning: tuning, fullSeries: campaigns.count <= DailyCharts.fullSeriesCampaignLimit, to: &page)
            page.raw("</details>\n")
        }
        page.raw("</section>\n")
    }

    /// The variants' numbers as text: the CSV row's values, rounded for reading.
    private static func table(_ campaign: ExposureCampaign, to page: inout HTMLWriter) {
        page.raw("<div class=\"wide\"><table><thead><tr><th class=\"name\">variant</th><th>control</th><th>units</th><th>converted</th><th>conversion rate</th><th>95% interval</th><th>orders</th><th>revenue (minor)</th><th>revenue / unit</th><th>impressions</th><th>lift</th><th>relative lift</th><th>lift 95% interval</th><th>p-value</th><th>always-valid interval</th><th>always-valid p</th><th>revenue / unit lift</th><th>its 95% interval</th><th>its p-value</th></tr></thead><tbody>")
        for row in campaign.variants {
            let interval = RateInterval(row)
            page.raw("<tr><td class=\"name\">")
            page.text(row.variant)
            page.raw("</td>")
            let cells: [String] = [
                row.control ? "yes" : "no", String(row.units), String(row.convertedUnits),
                NumberText.percent(row.conversionRate),
                interval.map { NumberText.range(NumberText.percent($0.low), NumberText.percent($0.high)) } ?? "–",
                String(row.orders), NumberText.minor(row.revenueMinor),
                row.revenuePerUnit.map { NumberText.fixed($0, decimals: 2) } ?? "–",
                String(row.impressions), NumberText.points(row.absDiff), NumberText.percent(row.relLift),
                row.ciLow.flatMap { low in row.ciHigh.map { NumberText.range(NumberText.points(low), NumberText.points($0)) } } ?? "–",
                NumberText.pValue(row.pValue),
                row.seqCiLow.flatMap { low in row.seqCiHigh.map { NumberText.range(NumberText.points(low), NumberText.points($0)) } } ?? "–",
                NumberText.pValue(row.seqPValue),
                row.revenueAbsDiff.map { NumberText.fixed($0, decimals: 2) } ?? "–",
                row.revenueCiLow.flatMap { low in row.revenueCiHigh.map { NumberText.range(NumberText.fixed(low, decimals: 2), NumberText.fixed($0, decimals: 2)) } } ?? "–",
                NumberText.pValue(row.revenuePValue),
            ]
            for (column, cell) in cells.enumerated() {
                // A few units is flagged where it is.
                page.raw(column == 1 && row.units < HealthWarning.fewUnitsLimit ? "<td class=\"bad\">" : "<td>")
                page.text(cell)
                page.raw("</td>")
            }
            page.raw("</tr>")
        }
        page.raw("</tbody></table></div>\n")
    }

    /// Label column, plot area and value text column of both charts, in pixels.
    private static let labelRight = 150.0, plotLeft = 160.0, plotRight = 480.0, rowHeight = 24.0

    /// Each variant's conversion rate as a point with its 95% interval, on an axis from 0.
    private static func rateChart(_ campaign: ExposureCampaign, to page: inout HTMLWriter) {
        let intervals = campaign.variants.map(RateInterval.init)
        let top = LinearScale.niceCeiling(intervals.compactMap { $0?.high }.max() ?? 0)
        let scale = LinearScale(domain: (0, top), range: (plotLeft, plotRight))
        let plotBottom = 16 + rowHeight * Double(campaign.variants.count)
        SVG.open(&page, width: 760, height: plotBottom + 24, label: "conversion rate by variant of \(campaign.campaign) with 95% intervals")
        SVG.text(&page, "conversion rate, 95% interval", x: plotLeft, y: 12, className: "axis")
        for (index, (row, interval)) in zip(campaign.variants, intervals).enumerated() {
            let y = 16 + rowHeight * Double(index) + rowHeight / 2
            SVG.label(&page, row.variant, x: labelRight, y: y + 4)
            let colour: SVG.Colour = row.control ? .orange : .blue
            guard let interval else {
                SVG.text(&page, "no units", x: plotLeft, y: y + 4, className: "axis")
                continue
            }
            SVG.pointWithInterval(
                &page, value: scale(interval.rate), low: scale(interval.low), high: scale(interval.high), y: y, colour: colour,
                title: "\(row.variant): conversion rate \(NumberText.exact(interval.rate)) (\(row.convertedUnits) of \(row.units) units), 95% interval \(NumberText.exact(interval.low)) to \(NumberText.exact(interval.high))")
            SVG.text(&page, "\(NumberText.percent(interval.rate)) [\(NumberText.range(NumberText.percent(interval.low), NumberText.percent(interval.high)))]\(row.control ? " control" : "")",
                     x: plotRight + 10, y: y + 4)
        }
        axis(scale, ticks: [0, top / 2, top], y: plotBottom + 4, format: NumberText.percent, to: &page)
        SVG.close(&page)
        page.raw("\n")
    }

    /// Each non-control variant's lift (difference of rates) with its 95% interval, against a
    /// zero line; nothing is drawn without a single control.
    private static func liftChart(_ campaign: ExposureCampaign, to page: inout HTMLWriter) {
        let rows = campaign.variants.filter { !$0.control && $0.absDiff != nil }
        guard !rows.isEmpty else {
            page.raw("<p class=\"note\">")
            page.text(campaign.foldedCampaigns > 0
                ? "No lift, interval or SRM: the sums of \(campaign.foldedCampaigns) campaigns are not one experiment."
                : campaign.variants.count(where: \.control) == 1
                ? "No lift to draw: no other variant has units."
                : "No lift: the campaign needs exactly one control variant.")
            page.raw("</p>\n")
            return
        }
        let reach = rows.flatMap { [$0.absDiff, $0.ciLow, $0.ciHigh, $0.seqCiLow, $0.seqCiHigh].compactMap { $0.map(abs) } }.max() ?? 0
        let bound = LinearScale.niceCeiling(reach)
        let scale = LinearScale(domain: (-bound, bound), range: (plotLeft, plotRight))
        // Two lines a variant: the fixed 95% interval, and the always-valid one below it.
        let plotBottom = 16 + 2 * rowHeight * Double(rows.count)
        SVG.open(&page, width: 760, height: plotBottom + 24, label: "lift against the control of \(campaign.campaign) with 95% fixed and always-valid intervals")
        SVG.text(&page, "lift against the control (percentage points): fixed 95% interval, and always-valid below it", x: plotLeft, y: 12, className: "axis")
        SVG.line(&page, x1: scale(0), y1: 16, x2: scale(0), y2: plotBottom + 4, stroke: .ink, dashed: true)
        for (index, row) in rows.enumerated() {
            let y = 16 + 2 * rowHeight * Double(index) + rowHeight / 2
            SVG.label(&page, row.variant, x: labelRight, y: y + 4)
            let difference = row.absDiff ?? 0
            let sequentialY = y + rowHeight
            SVG.text(&page, "always-valid", x: labelRight, y: sequentialY + 4, anchor: "end", className: "axis")
            SVG.pointWithInterval(
                &page, value: scale(difference), low: row.seqCiLow.map { scale($0) }, high: row.seqCiHigh.map { scale($0) },
                y: sequentialY, colour: .orange,
                title: "\(row.variant): abs_diff \(NumberText.exact(row.absDiff)), always-valid interval \(NumberText.exact(row.seqCiLow)) to \(NumberText.exact(row.seqCiHigh)), seq_p_value \(NumberText.exact(row.seqPValue))")
            let sequential = row.seqCiLow.flatMap { low in row.seqCiHigh.map { " [\(NumberText.range(NumberText.points(low), NumberText.points($0)))]" } } ?? ""
            SVG.text(&page, "\(NumberText.points(row.absDiff))\(sequential) p = \(NumberText.pValue(row.seqPValue))", x: plotRight + 10, y: sequentialY + 4)
            SVG.pointWithInterval(
                &page, value: scale(difference), low: row.ciLow.map { scale($0) }, high: row.ciHigh.map { scale($0) }, y: y,
                colour: .blue,
                title: "\(row.variant): abs_diff \(NumberText.exact(row.absDiff)), rel_lift \(NumberText.exact(row.relLift)), 95% interval \(NumberText.exact(row.ciLow)) to \(NumberText.exact(row.ciHigh)), p-value \(NumberText.exact(row.pValue))")
            let interval = row.ciLow.flatMap { low in row.ciHigh.map { " [\(NumberText.range(NumberText.points(low), NumberText.points($0)))]" } } ?? ""
            SVG.text(&page, "\(NumberText.points(row.absDiff))\(interval) p = \(NumberText.pValue(row.pValue))", x: plotRight + 10, y: y + 4)
        }
        axis(scale, ticks: [-bound, 0, bound], y: plotBottom + 4, format: NumberText.points, to: &page)
        SVG.close(&page)
        page.raw("\n")
    }

    /// Each non-control variant's difference of revenue per unit with its 95% interval, against
    /// a zero line (SPEC section 10.4).
    private static func revenueChart(_ campaign: ExposureCampaign, to page: inout HTMLWriter) {
        let rows = campaign.variants.filter { !$0.control && $0.revenueAbsDiff != nil }
        guard !rows.isEmpty else { return }
        let reach = rows.flatMap { [$0.revenueAbsDiff, $0.revenueCiLow, $0.revenueCiHigh].compactMap { $0.map(abs) } }.max() ?? 0
        let bound = max(LinearScale.niceCeiling(reach), 1)
        let scale = LinearScale(domain: (-bound, bound), range: (plotLeft, plotRight))
        let plotBottom = 16 + rowHeight * Double(rows.count)
        SVG.open(&page, width: 760, height: plotBottom + 24, label: "revenue per unit against the control of \(campaign.campaign) with 95% intervals")
        SVG.text(&page, "revenue per unit against the control (minor units), 95% interval", x: plotLeft, y: 12, className: "axis")
        SVG.line(&page, x1: scale(0), y1: 16, x2: scale(0), y2: plotBottom + 4, stroke: .ink, dashed: true)
        let amount = { (value: Double?) in value.map { NumberText.fixed($0, decimals: 2) } ?? "–" }
        for (index, row) in rows.enumerated() {
            let y = 16 + rowHeight * Double(index) + rowHeight / 2
            SVG.label(&page, row.variant, x: labelRight, y: y + 4)
            SVG.pointWithInterval(
                &page, value: scale(row.revenueAbsDiff ?? 0), low: row.revenueCiLow.map { scale($0) }, high: row.revenueCiHigh.map { scale($0) },
                y: y, colour: .green,
                title: "\(row.variant): revenue_abs_diff \(NumberText.exact(row.revenueAbsDiff)), 95% interval \(NumberText.exact(row.revenueCiLow)) to \(NumberText.exact(row.revenueCiHigh)), revenue_p_value \(NumberText.exact(row.revenuePValue))")
            let interval = row.revenueCiLow.flatMap { low in row.revenueCiHigh.map { " [\(NumberText.range(amount(low), amount($0)))]" } } ?? ""
            SVG.text(&page, "\(amount(row.revenueAbsDiff))\(interval) p = \(NumberText.pValue(row.revenuePValue))", x: plotRight + 10, y: y + 4)
        }
        axis(scale, ticks: [-bound, 0, bound], y: plotBottom + 4, format: amount, to: &page)
        SVG.close(&page)
        page.raw("\n")
    }

    /// A horizontal axis at `y` with labelled ticks below it.
    private static func axis(
        _ scale: LinearScale, ticks: [Double], y: Double, format: (Double?) -> String, to page: inout HTMLWriter
    ) {
        SVG.line(&page, x1: scale.range.low, y1: y, x2: scale.range.high, y2: y, stroke: .grey)
        for (index, tick) in ticks.enumerated() {
            let anchor = index == 0 ? "start" : index == ticks.count - 1 ? "end" : "middle"
            SVG.line(&page, x1: scale(tick), y1: y - 3, x2: scale(tick), y2: y + 3, stroke: .grey)
            SVG.text(&page, format(tick), x: scale(tick), y: y + 15, anchor: anchor, className: "axis")
        }
    }
}
