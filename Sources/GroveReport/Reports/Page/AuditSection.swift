/// The preview audit on the page (docs/PAGE.md): the leak check, the violations (highlighted
/// when above 0), the excluded preview and consent-denied totals, the preview links by kind and
/// outcome, and each campaign's counts.
enum AuditSection {
    static func write(_ audit: PreviewAudit, to page: inout HTMLWriter) {
        page.raw("<section id=\"audit\">\n<h2>Preview audit</h2>\n")
        if audit.leakCheck == 0 {
            page.raw("<div class=\"banner ok\"><strong>Leak check 0.</strong>No preview or consent-denied event reached the analysis.</div>\n")
        } else {
            page.raw("<div class=\"banner bad\"><strong>")
            page.text("Leak check \(audit.leakCheck).")
            page.raw("</strong>Preview or consent-denied events reached the analysis: the run fails (a bug, please report it).</div>\n")
        }
        let total = audit.violations.total
        if total == 0 {
            page.raw("<div class=\"banner ok\"><strong>No violations.</strong>Preview traffic kept every rule.</div>\n")
        } else {
            page.raw("<div class=\"banner bad\"><strong>")
            page.text("\(total) violation\(total == 1 ? "" : "s").")
            page.raw("</strong>")
            let named = audit.violations.named.filter { $0.count > 0 }.map { "\($0.name) \($0.count)" }
            page.text(named.joined(separator: ", ") + "; validate exits 3.")
            page.raw("</div>\n")
        }
        CountTable(
            caption: "violations over all campaigns", corner: "violation", columns: ["events"],
            rows: audit.violations.named.map { ($0.name, [$0.count]) }, highlightsNonZero: true
        ).write(to: &page)
        CountTable(
            caption: "events kept out of the analysis, by type", corner: "excluded",
            columns: EventType.grona.map(\.name),
            rows: [("preview", audit.previewTotals), ("consent denied", audit.consentDeniedTotals)]
        ).write(to: &page)
        CountTable(
            caption: "preview links by kind (rows) and what the SDK did with them (columns)", corner: "kind",
            columns: PreviewLinkOutcome.allCases.map(\.name),
            rows: PreviewLinkKind.allCases.map { kind in
                (kind.name, PreviewLinkOutcome.allCases.map { audit.previewLinks[kind, $0] })
            }
        ).write(to: &page)
        campaigns(audit, to: &page)
        page.raw("</section>\n")
    }

    /// One row per campaign of the audit, violations highlighted where above 0.
    private static func campaigns(_ audit: PreviewAudit, to page: inout HTMLWriter) {
        page.raw("<h3>By campaign</h3>\n")
        guard !audit.campaigns.isEmpty else { return page.raw("<p>No Grona campaign.</p>\n") }
        let flagged = audit.campaigns.count { $0.violations.total > 0 && $0.foldedCampaigns == 0 }
        page.raw("<p class=\"note\">")
        if audit.foldedCampaigns > 0 {
            page.text("\(flagged) of the \(audit.campaigns.count - 1) named campaigns have violations. "
                + ReportPage.foldSentence(audit.foldedCampaigns, named: audit.campaigns.count - 1, by: "violations, then preview events and pairings"))
        } else {
            page.text("\(flagged) of \(audit.campaigns.count) campaigns have violations.")
        }
        page.raw("</p>\n<div class=\"wide\"><table><thead><tr><th class=\"name\">campaign</th><th>preview decisions</th><th>preview impressions</th><th>preview grants</th><th>preview pairings</th><th>preview installs</th><th>preview contaminated</th>")
        for (name, _) in AuditViolations().named {
            page.raw("<th>")
            page.columnName(name)
            page.raw("</th>")
        }
        page.raw("</tr></thead><tbody>")
        for campaign in audit.campaigns {
            page.raw(campaign.violations.total > 0 ? "<tr class=\"flagged\"><td class=\"name\">" : "<tr><td class=\"name\">")
            page.text(campaign.campaign)
            page.raw("</td>")
            for count in [campaign.previewDecisions, campaign.previewImpressions, campaign.previewGrants,
                          campaign.previewPairings, campaign.previewInstalls, campaign.previewContaminated] {
                page.raw("<td>")
                page.number(count)
                page.raw("</td>")
            }
            for (_, count) in campaign.violations.named {
                page.raw(count > 0 ? "<td class=\"bad\">" : "<td>")
                page.number(count)
                page.raw("</td>")
            }
            page.raw("</tr>")
        }
        page.raw("</tbody></table></div>\n")
    }
}
