/// Renders `preview_audit.json` (docs/AUDIT.md) and the human-readable audit of `validate`.
public enum PreviewAuditReport {
    static func json(_ audit: PreviewAudit) -> [UInt8] {
        let campaigns = audit.campaigns.map { campaign in
            JSONOutput.object([
                JSONOutput.Member("campaign", .string(campaign.campaign)),
                JSONOutput.Member("preview_decisions", .integer(campaign.previewDecisions)),
                JSONOutput.Member("preview_impressions", .integer(campaign.previewImpressions)),
                JSONOutput.Member("preview_grants", .integer(campaign.previewGrants)),
                JSONOutput.Member("preview_pairings", .integer(campaign.previewPairings)),
                JSONOutput.Member("preview_installs", .integer(campaign.previewInstalls)),
                JSONOutput.Member("preview_contaminated", .integer(campaign.previewContaminated)),
                JSONOutput.Member("violations", violations(campaign.violations)),
            ])
        }
        return JSONOutput.object([
            JSONOutput.Member("campaigns", .array(campaigns)),
            JSONOutput.Member("totals", .object([
                JSONOutput.Member("preview", byGronaType(audit.previewTotals)),
                JSONOutput.Member("consent_denied", byGronaType(audit.consentDeniedTotals)),
                JSONOutput.Member("preview_links", previewLinks(audit.previewLinks)),
            ])),
            JSONOutput.Member("violations", violations(audit.violations)),
            JSONOutput.Member("leak_check", .integer(audit.leakCheck)),
        ]).rendered()
    }

    /// The audit for people: totals, then each campaign with a violation, then the verdict.
    public static func text(_ audit: PreviewAudit) -> String {
        var lines: [String] = ["Preview audit"]
        let preview = zip(EventType.grona, audit.previewTotals).map { "\($0.name) \($1)" }
        let denied = zip(EventType.grona, audit.consentDeniedTotals).map { "\($0.name) \($1)" }
        lines.append("  preview events excluded:        " + preview.joined(separator: ", "))
        lines.append("  consent-denied events excluded: " + denied.joined(separator: ", "))
        lines.append("  preview links: \(audit.previewLinks.total)")
        for kind in PreviewLinkKind.allCases {
            let outcomes = PreviewLinkOutcome.allCases.map { "\($0.name) \(audit.previewLinks[kind, $0])" }
            let label = kind.name + ":"
            lines.append("    " + label + String(repeating: " ", count: 11 - label.count) + outcomes.joined(separator: ", "))
        }
        lines.append("  leak check: \(audit.leakCheck) \(audit.leakCheck == 0 ? "(no excluded event reached the analysis)" : "EXCLUDED EVENTS REACHED THE ANALYSIS")")
        if audit.foldedCampaigns == 0 {
            lines.append("  campaigns: \(audit.campaigns.count)")
        } else {
            let named = audit.campaigns.count - 1
            lines.append("  campaigns: \(named + audit.foldedCampaigns) (\(named) named, \(audit.foldedCampaigns) summed as \(printable(CampaignFold.name)): --max-campaigns)")
        }
        for campaign in audit.campaigns {
            let found = campaign.violations.named.filter { $0.count > 0 }
            let installs = "preview installs \(campaign.previewInstalls), pairings \(campaign.previewPairings), contaminated events \(campaign.previewContaminated)"
            let verdict = found.isEmpty ? "ok" : found.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
            lines.append("    \(printable(campaign.campaign)): \(installs); \(verdict)")
        }
        let total = audit.violations.total
        if total == 0 {
            lines.append("No violations.")
        } else {
            let named = audit.violations.named.filter { $0.count > 0 }.map { "\($0.name) \($0.count)" }
            lines.append("VIOLATIONS: \(total) (\(named.joined(separator: ", ")))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A name from the logs, quoted, with `"`, `\\` and control characters escaped as in JSON, so
    /// a campaign can neither break the audit's lines nor forge one. CI runners read commands
    /// from output lines (GitHub Actions: a line starting with `::` after its indent, or holding
    /// `##[`), so the quote opens the line's text and `##[` is written `#\u0023[`.
    static func printable(_ name: ByteString) -> String {
        let scalars = Array(name.description.unicodeScalars)
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for (index, scalar) in scalars.enumerated() {
            let opensCommand = scalar == "#" && index > 0 && scalars[index - 1] == "#"
                && index + 1 < scalars.count && scalars[index + 1] == "["
            if scalar == "\"" || scalar == "\\" {
                out += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            } else if opensCommand || scalar.value < 0x20 || scalar.value == 0x7F {
                JSONText.appendUnicodeEscape(UInt16(scalar.value), to: &out)
            } else {
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    private static func violations(_ violations: AuditViolations) -> JSONOutput {
        .object(violations.named.map { JSONOutput.Member($0.name, .integer($0.count)) })
    }

    /// `{kind: {outcome: n}}`, all sixteen cells.
    private static func previewLinks(_ counts: PreviewLinkCounts) -> JSONOutput {
        .object(PreviewLinkKind.allCases.map { kind in
            JSONOutput.Member(kind.name, .object(PreviewLinkOutcome.allCases.map {
                JSONOutput.Member($0.name, .integer(counts[kind, $0]))
            }))
        })
    }

    private static func byGronaType(_ counts: [Int]) -> JSONOutput {
        .object(zip(EventType.grona, counts).map { JSONOutput.Member($0.name, .integer($1)) })
    }
}
