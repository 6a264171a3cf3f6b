/// `report.html` (docs/PAGE.md): one self-contained, deterministic HTML5 page of the run's
/// accounting, attribution, exposure and preview audit, for people who would rather look than read.
///
/// It loads nothing (inline CSS and SVG; a content security policy forbids any request), runs no
/// script, and shows no time or date of its own, so the same input gives the same bytes.
enum ReportPage {
    /// Up to this many campaigns, every campaign's section opens with the page; beyond it they
    /// start collapsed, so a page of thousands of campaigns lays out only what is opened.
    static let openCampaignLimit = 20

    static func html(_ result: RunResult) -> [UInt8] {
        // However many campaigns the reports name, the page draws at most `pageMaximum` of each
        // analysis and sums the rest as `(other campaigns)`, the same fold again.
        let attribution = result.attribution.folded(maximum: CampaignFold.pageMaximum)
        let exposure = result.exposure.campaigns.folded(maximum: CampaignFold.pageMaximum, earlier: result.exposure.foldedCampaigns)
        let audit = result.exposure.audit.folded(maximum: CampaignFold.pageMaximum)
        var page = HTMLWriter()
        page.raw("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>grove-report</title>
            <style>
            \(PageStyle.css)
            </style>
            </head>
            <body>
            <header>
            <h1>grove-report</h1>

            """)
        let accounting = result.accounting
        page.raw("<p class=\"lead\">")
        let attributionCampaigns = CampaignFold.campaignCount(rows: attribution.campaigns.count, folded: attribution.foldedCampaigns)
        let exposureCampaigns = CampaignFold.campaignCount(rows: exposure.campaigns.count, folded: exposure.folded)
        page.text("\(accounting.files) input files, \(accounting.lines) lines, \(attributionCampaigns) attribution campaigns, \(exposureCampaigns) exposure campaigns. Exact values are in the CSV and JSON reports beside this page, and in each chart mark's tooltip.")
        page.raw("</p>\n")
        glance(result, to: &page)
        page.raw("<nav><a href=\"#run\">Run</a><a href=\"#attribution\">Attribution</a><a href=\"#exposure\">Exposure</a><a href=\"#audit\">Preview audit</a></nav>\n</header>\n<main>\n")
        RunSection.write(accounting, to: &page)
        AttributionSection.write(attribution, openCampaigns: attribution.campaigns.count <= openCampaignLimit, to: &page)
        ExposureSection.write(
            exposure.campaigns, folded: exposure.folded, openCampaigns: exposure.campaigns.count <= openCampaignLimit,
            tuning: result.exposure.sequentialTuning, to: &page)
        AuditSection.write(audit, to: &page)
        page.raw("</main>\n</body>\n</html>\n")
        return page.bytes
    }

    /// The note of a section whose campaigns are folded: how many, by what, and where to find them.
    static func foldNote(_ folded: Int, named: Int, by weight: String, to page: inout HTMLWriter) {
        guard folded > 0 else { return }
        page.raw("<p class=\"note\">")
        page.text(foldSentence(folded, named: named, by: weight))
        page.raw("</p>\n")
    }

    static func foldSentence(_ folded: Int, named: Int, by weight: String) -> String {
        "\(named) campaigns are named; the \(folded) with the fewest \(weight) are summed as \(CampaignFold.name) (the reports name up to --max-campaigns campaigns, the page up to \(CampaignFold.pageMaximum))."
    }

    /// What to worry about first, before any detail: input errors, the leak check, violations
    /// and health warnings, each green when clear and marked (in words too) when not.
    private static func glance(_ result: RunResult, to page: inout HTMLWriter) {
        let errors = result.accounting.inputErrors.count
        let violations = result.exposure.audit.violations.total
        let leaks = result.exposure.audit.leakCheck
        let warned = result.exposure.campaigns.count { !$0.warnings.isEmpty }
        let items: [(clear: Bool, bad: Bool, text: String)] = [
            (errors == 0, true, errors == 0 ? "✓ no input error" : "✗ \(errors) input error\(errors == 1 ? "" : "s")"),
            (leaks == 0, true, leaks == 0 ? "✓ leak check 0" : "✗ leak check \(leaks)"),
            (violations == 0, true, violations == 0 ? "✓ no audit violation" : "✗ \(violations) audit violation\(violations == 1 ? "" : "s")"),
            (warned == 0, false, warned == 0 ? "✓ no health warning" : "⚠ \(warned) campaign\(warned == 1 ? "" : "s") with health warnings"),
        ]
        page.raw("<div class=\"figures glance\">")
        for item in items {
            page.raw(item.clear ? "<span class=\"badge ok\">" : item.bad ? "<span class=\"badge bad\">" : "<span class=\"badge warn\">")
            page.text(item.text)
            page.raw("</span>")
        }
        page.raw("</div>\n")
    }
}
