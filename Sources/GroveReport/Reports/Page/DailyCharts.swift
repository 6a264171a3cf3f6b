/// The charts of SPEC section 10.4 drawn from the daily files (docs/PAGE.md): each variant's
/// cumulative conversion rate by day, the lift's always-valid band by day, and a campaign's
/// clicks and attributed clicks by click day. Days run along x; the axis labels the first, the
/// middle and the last day only, so 365 days read as well as 3. Every drawn value is also text:
/// a line per series with its first and last day, and (for a page of few campaigns) the whole
/// series in the mark's tooltip. A campaign whose figures all fall on one day gets no day chart:
/// its one point would repeat the charts above it (and a page of many one-day campaigns stays small).
enum DailyCharts {
    /// Beyond this many campaigns on the page, tooltips carry a series' first and last day only:
    /// a thousand campaigns of a year of days stay a page that opens (the CSV has every day).
    static let fullSeriesCampaignLimit = ReportPage.openCampaignLimit

    private static let plotLeft = 60.0, plotRight = 500.0, plotTop = 20.0, plotHeight = 120.0, width = 760.0
    private static let colours: [SVG.Colour] = [.blue, .orange, .green, .vermillion, .sky, .purple]

    /// The days of `series` on x, from the first day to the last of all of them.
    private static func dayScale(_ days: [Int]) -> LinearScale {
        let first = Double(days.min() ?? 0), last = Double(days.max() ?? 0)
        return LinearScale(domain: (first, max(last, first + 1)), range: (plotLeft, plotRight))
    }

    /// Labels the first, middle and last day under the plot.
    private static func dayAxis(_ scale: LinearScale, days: [Int], y: Double, to page: inout HTMLWriter) {
        SVG.line(&page, x1: plotLeft, y1: y, x2: plotRight, y2: y, stroke: .grey)
        guard let first = days.min(), let last = days.max() else { return }
        let marks = first == last ? [first] : last - first < 2 ? [first, last] : [first, first + (last - first) / 2, last]
        for (index, day) in marks.enumerated() {
            let anchor = marks.count == 1 ? "start" : index == 0 ? "start" : index == marks.count - 1 ? "end" : "middle"
            SVG.line(&page, x1: scale(Double(day)), y1: y - 3, x2: scale(Double(day)), y2: y + 3, stroke: .grey)
            SVG.text(&page, DayText.of(day), x: scale(Double(day)), y: y + 15, anchor: anchor, className: "axis")
        }
    }

    private static func valueAxis(_ scale: LinearScale, ticks: [Double], format: (Double?) -> String, to page: inout HTMLWriter) {
        for tick in ticks {
            SVG.line(&page, x1: plotLeft - 3, y1: scale(tick), x2: plotRight, y2: scale(tick), stroke: .grey, width: 0.3)
            SVG.text(&page, format(tick), x: plotLeft - 6, y: scale(tick) + 4, anchor: "end", className: "axis")
        }
    }

    private static func points(_ values: [(day: Int, value: Double)], x: LinearScale, y: LinearScale) -> String {
        values.map { "\(SVG.n(x(Double($0.day)))),\(SVG.n(y($0.value)))" }.joined(separator: " ")
    }

    /// A series as text: every day when `full`, else its first and last.
    private static func seriesText(_ values: [(day: Int, text: String)], full: Bool) -> String {
        let shown = full || values.count <= 2 ? values : [values[0], values[values.count - 1]]
        let joined = shown.map { "\(DayText.of($0.day)) \($0.text)" }.joined(separator: full || values.count <= 2 ? "; " : " … ")
        return full || values.count <= 2 ? joined : joined + " (every day in the daily CSV)"
    }

    /// Each variant's cumulative conversion rate by day, and each non-control variant's lift
    /// with its always-valid band by day against a zero line.
    static func exposure(_ campaign: ExposureCampaign, tuning: Int, fullSeries: Bool, to page: inout HTMLWriter) {
        let series = ExposureDailyReport.rows(campaign, tuning: tuning)
        let days = series.flatMap { $0.rows.map(\.day) }
        guard Set(days).count > 1 else { return }
        let x = dayScale(days)
        let top = LinearScale.niceCeiling(series.flatMap { $0.rows.map(\.conversionRate) }.max() ?? 0)
        let y = LinearScale(domain: (0, max(top, 0.01)), range: (plotTop + plotHeight, plotTop))
        let legendTop = plotTop + plotHeight + 30
        SVG.open(&page, width: width, height: legendTop + 16 * Double(series.count) + 4,
                 label: "cumulative conversion rate by day of each variant of \(campaign.campaign)")
        SVG.text(&page, "cumulative conversion rate by day (exposure_daily.csv)", x: plotLeft, y: 12, className: "axis")
        valueAxis(y, ticks: [0, top / 2, top], format: NumberText.percent, to: &page)
        for (index, (variant, rows)) in series.enumerated() {
            let colour = colours[index % colours.count]
            let text = seriesText(rows.map { ($0.day, "\(NumberText.percent($0.conversionRate)) (\($0.convertedUnits)/\($0.units))") }, full: fullSeries)
            page.raw("<polyline fill=\"none\" stroke=\"\(colour.rawValue)\" stroke-width=\"2\" points=\"\(points(rows.map { ($0.day, $0.conversionRate) }, x: x, y: y))\"><title>")
            page.text("\(variant): \(text)")
            page.raw("</title></polyline>")
            if rows.count == 1 {
                page.raw("<circle cx=\"\(SVG.n(x(Double(rows[0].day))))\" cy=\"\(SVG.n(y(rows[0].conversionRate)))\" r=\"3\" fill=\"\(colour.rawValue)\"/>")
            }
            let legendY = legendTop + 16 * Double(index) + 12
            SVG.rect(&page, x: plotLeft, y: legendY - 9, width: 10, height: 10, fill: colour)
            SVG.label(&page, variant, x: plotLeft + 130, y: legendY)
            SVG.text(&page, seriesText(rows.map { ($0.day, "\(NumberText.percent($0.conversionRate)) (\($0.convertedUnits)/\($0.units))") }, full: false),
                     x: plotLeft + 140, y: legendY)
        }
        dayAxis(x, days: days, y: plotTop + plotHeight + 4, to: &page)
        SVG.close(&page)
        page.raw("\n")
        band(campaign.campaign, series.filter { $0.rows.contains { $0.absDiff != nil } }, fullSeries: fullSeries, to: &page)
    }

    /// The lift by day with its always-valid band (seq_ci_low … seq_ci_high) against zero.
    private static func band(_ campaign: ByteString, _ series: [(variant: ByteString, rows: [ExposureDailyReport.Row])], fullSeries: Bool, to page: inout HTMLWriter) {
        guard !series.isEmpty else { return }
        let rows = series.flatMap(\.rows).filter { $0.absDiff != nil }
        let days = rows.map(\.day)
        let x = dayScale(days)
        let reach = rows.flatMap { [$0.absDiff, $0.seqCiLow, $0.seqCiHigh].compactMap { $0.map(abs) } }.max() ?? 0
        let bound = max(LinearScale.niceCeiling(reach), 0.01)
        let y = LinearScale(domain: (-bound, bound), range: (plotTop + plotHeight, plotTop))
        let legendTop = plotTop + plotHeight + 30
        SVG.open(&page, width: width, height: legendTop + 16 * Double(series.count) + 4,
                 label: "lift by day against the control of \(campaign) with its always-valid interval")
        SVG.text(&page, "lift by day (percentage points) with the always-valid 95% band", x: plotLeft, y: 12, className: "axis")
        valueAxis(y, ticks: [-bound, 0, bound], format: NumberText.points, to: &page)
        SVG.line(&page, x1: plotLeft, y1: y(0), x2: plotRight, y2: y(0), stroke: .ink, dashed: true)
        for (index, (variant, variantRows)) in series.enumerated() {
            let colour = colours[(index + 1) % colours.count]
            let banded = variantRows.compactMap { row in row.seqCiLow.flatMap { low in row.seqCiHigh.map { (row.day, low, $0) } } }
            if !banded.isEmpty {
                let upper = banded.map { (day: $0.0, value: $0.2) }, lower = banded.reversed().map { (day: $0.0, value: $0.1) }
                page.raw("<polygon fill=\"\(colour.rawValue)\" fill-opacity=\"0.2\" stroke=\"none\" points=\"\(points(upper + lower, x: x, y: y))\"><title>")
                page.text("\(variant): always-valid interval " + seriesText(banded.map { ($0.0, NumberText.range(NumberText.points($0.1), NumberText.points($0.2))) }, full: fullSeries))
                page.raw("</title></polygon>")
            }
            let lifts = variantRows.compactMap { row in row.absDiff.map { (day: row.day, value: $0) } }
            let text = seriesText(lifts.map { ($0.day, NumberText.points($0.value)) }, full: fullSeries)
            page.raw("<polyline fill=\"none\" stroke=\"\(colour.rawValue)\" stroke-width=\"2\" points=\"\(points(lifts, x: x, y: y))\"><title>")
            page.text("\(variant): lift \(text)")
            page.raw("</title></polyline>")
            let legendY = legendTop + 16 * Double(index) + 12
            SVG.rect(&page, x: plotLeft, y: legendY - 9, width: 10, height: 10, fill: colour)
            SVG.label(&page, variant, x: plotLeft + 130, y: legendY)
            let last = variantRows.last { $0.absDiff != nil }
            let lastBand = last.flatMap { row in row.seqCiLow.flatMap { low in row.seqCiHigh.map { " [\(NumberText.range(NumberText.points(low), NumberText.points($0)))]" } } } ?? ""
            SVG.text(&page, "\(last.map { DayText.of($0.day) } ?? ""): \(NumberText.points(last?.absDiff))\(lastBand)", x: plotLeft + 140, y: legendY)
        }
        dayAxis(x, days: days, y: plotTop + plotHeight + 4, to: &page)
        SVG.close(&page)
        page.raw("\n")
    }

    /// A campaign's clicks and attributed clicks by click day.
    static func attribution(_ campaign: ByteString, _ counts: AttributionCounts, fullSeries: Bool, to page: inout HTMLWriter) {
        let days = counts.days.sorted.filter { $0.counts[0] > 0 }
        guard days.count > 1 else { return }
        let x = dayScale(days.map(\.day))
        let top = LinearScale.niceCeiling(Double(days.map { $0.counts[0] }.max() ?? 1))
        let y = LinearScale(domain: (0, max(top, 1)), range: (plotTop + plotHeight, plotTop))
        SVG.open(&page, width: width, height: plotTop + plotHeight + 30 + 36,
                 label: "clicks and attributed clicks by click day of \(campaign)")
        SVG.text(&page, "clicks and attributed clicks by click day (attribution_daily.csv)", x: plotLeft, y: 12, className: "axis")
        valueAxis(y, ticks: [0, top / 2, top], format: { $0.map { String(Int($0)) } ?? "" }, to: &page)
        let legendTop = plotTop + plotHeight + 30
        for (index, (name, position, colour)) in [("clicks", 0, SVG.Colour.blue), ("attributed", 2, .green)].enumerated() {
            let values = days.map { (day: $0.day, value: Double($0.counts[position])) }
            page.raw("<polyline fill=\"none\" stroke=\"\(colour.rawValue)\" stroke-width=\"2\" points=\"\(points(values, x: x, y: y))\"><title>")
            page.text("\(name): " + seriesText(values.map { ($0.day, String(Int($0.value))) }, full: fullSeries))
            page.raw("</title></polyline>")
            if days.count == 1 {
                page.raw("<circle cx=\"\(SVG.n(x(Double(days[0].day))))\" cy=\"\(SVG.n(y(values[0].value)))\" r=\"3\" fill=\"\(colour.rawValue)\"/>")
            }
            let legendY = legendTop + 16 * Double(index) + 12
            SVG.rect(&page, x: plotLeft, y: legendY - 9, width: 10, height: 10, fill: colour)
            SVG.text(&page, "\(name): " + seriesText(values.map { ($0.day, String(Int($0.value))) }, full: false), x: plotLeft + 16, y: legendY)
        }
        dayAxis(x, days: days.map(\.day), y: plotTop + plotHeight + 4, to: &page)
        SVG.close(&page)
        page.raw("\n")
    }
}
