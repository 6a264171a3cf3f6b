/// Attribution on the page (docs/PAGE.md): the totals, then each campaign's funnel clicks →
/// opens → attributed and its store/app split, as bars with their counts and rates.
enum AttributionSection {
    static func write(_ attribution: AttributionResult, openCampaigns: Bool, to page: inout HTMLWriter) {
        page.raw("<section id=\"attribution\">\n<h2>Attribution</h2>\n")
        let totals = attribution.totals
        page.raw("<div class=\"figures\">")
        RunSection.figure(
            &page, CampaignFold.campaignCount(rows: attribution.campaigns.count, folded: attribution.foldedCampaigns), "campaigns")
        RunSection.figure(&page, totals.clicks, "clicks")
        RunSection.figure(&page, totals.opens, "opens")
        RunSection.figure(&page, totals.attributed, "attributed")
        page.raw("<div class=\"figure\"><b>")
        page.text(NumberText.percent(totals.attributionRate))
        page.raw("</b><span>attribution rate</span></div></div>\n")
        funnel(totals, label: "all campaigns", to: &page)
        CountTable(
            caption: "clicks, opens and bindings that belong to no campaign's row, each counted once per id",
            corner: "totals", columns: ["duplicate_clicks", "orphan_opens", "unresolved_opens", "orphan_binds"],
            rows: [("count", [attribution.duplicateClicks, attribution.orphanOpens, attribution.unresolvedOpens, attribution.orphanBinds])]
        ).write(to: &page)
        counts(totals, to: &page)
        page.raw("<h3>By campaign</h3>\n")
        ReportPage.foldNote(attribution.foldedCampaigns, named: attribution.campaigns.count - 1, by: "clicks", to: &page)
        if attribution.campaigns.isEmpty { page.raw("<p>No link clicks.</p>\n") }
        for (campaign, counts) in attribution.campaigns {
            page.raw(openCampaigns ? "<details open><summary>" : "<details><summary>")
            page.text(campaign)
            page.raw(" <span class=\"tags\">")
            page.text("— \(counts.clicks) clicks, \(counts.opens) opens, \(counts.attributed) attributed (\(NumberText.percent(counts.attributionRate)))")
            page.raw("</span></summary>\n")
            funnel(counts, label: campaign.description, to: &page)
            self.counts(counts, to: &page)
            DailyCharts.attribution(
                campaign, counts, fullSeries: attribution.campaigns.count <= DailyCharts.fullSeriesCampaignLimit, to: &page)
            page.raw("</details>\n")
        }
        page.raw("</section>\n")
    }

    /// Three bars (clicks, opens, attributed) on one scale, each with its count and its share of
    /// the clicks, and a stacked store/app bar.
    static func funnel(_ counts: AttributionCounts, label: String, to page: inout HTMLWriter) {
        let left = 100.0, barWidth = 320.0, row = 26.0
        let scale = LinearScale(domain: (0, Double(max(counts.clicks, counts.opens, counts.attributed, 1))), range: (left, left + barWidth))
        SVG.open(&page, width: 760, height: row * 4 + 6, label: "attribution funnel of \(label)")
        let clicks = Double(counts.clicks)
        let steps: [(String, Int, SVG.Colour)] = [
            ("clicks", counts.clicks, .blue), ("opens", counts.opens, .sky), ("attributed", counts.attributed, .green),
        ]
        for (index, (name, value, colour)) in steps.enumerated() {
            let y = Double(index) * row
            let rate = counts.clicks == 0 ? nil : Double(value) / clicks
            let text = index == 0 ? "\(value)" : "\(value) (\(NumberText.percent(rate)) of clicks)"
            SVG.text(&page, name, x: left - 8, y: y + 15, anchor: "end")
            SVG.rect(&page, x: left, y: y + 3, width: scale(Double(value)) - left, height: 16, fill: colour,
                     title: "\(name): \(value)" + (index == 0 ? "" : ", \(NumberText.exact(rate)) of clicks"))
            SVG.text(&page, text, x: scale(Double(value)) + 6, y: y + 15)
        }
        let y = row * 3
        SVG.text(&page, "store / app", x: left - 8, y: y + 15, anchor: "end")
        let store = counts.clicks == 0 ? 0 : barWidth * Double(counts.storeClicks) / clicks
        let app = counts.clicks == 0 ? 0 : barWidth * Double(counts.appClicks) / clicks
        SVG.rect(&page, x: left, y: y + 3, width: store, height: 16, fill: .orange, title: "store clicks: \(counts.storeClicks)")
        SVG.rect(&page, x: left + store, y: y + 3, width: app, height: 16, fill: .purple, title: "app clicks: \(counts.appClicks)")
        let storeShare = counts.clicks == 0 ? nil : Double(counts.storeClicks) / clicks
        let appShare = counts.clicks == 0 ? nil : Double(counts.appClicks) / clicks
        SVG.text(&page, "store \(counts.storeClicks) (\(NumberText.percent(storeShare))) · app \(counts.appClicks) (\(NumberText.percent(appShare)))",
                 x: left + barWidth + 6, y: y + 15)
        SVG.close(&page)
        page.raw("\n")
    }

    /// Every count of a row of `attribution.csv`, as text.
    private static func counts(_ counts: AttributionCounts, to page: inout HTMLWriter) {
        CountTable.values(
            columns: Array(AttributionReport.header.dropFirst()),
            values: [counts.clicks, counts.storeClicks, counts.appClicks, counts.opens, counts.openRetries,
                     counts.openConflicts, counts.attributed, counts.bindRetries, counts.bindConflicts].map(String.init)
                + [NumberText.percent(counts.attributionRate)],
            to: &page)
    }
}
