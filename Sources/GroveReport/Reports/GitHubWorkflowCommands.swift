/// Renders the preview audit for GitHub Actions (docs/AUDIT.md, validate): `::error` workflow commands,
/// which the runner turns into annotations, and a Markdown table for the job's step summary.
public enum GitHubWorkflowCommands {
    /// One `::error title=VIOLATION::message` line per violation name with a count above 0, and
    /// one for a failed leak check (a bug, which also fails the run).
    public static func errors(_ audit: PreviewAudit) -> String {
        var lines = AuditFinding.all(audit).map { finding in
            "::error title=\(escapedProperty(finding.violation))::\(escapedData("\(finding.violation): \(finding.summary)"))\n"
        }
        if audit.leakCheck != 0 {
            lines.append("::error title=leak_check::leak_check: \(audit.leakCheck) preview or consent-denied events reached the analysis\n")
        }
        return lines.joined()
    }

    /// The Markdown appended to `$GITHUB_STEP_SUMMARY`: a table of the violations per campaign,
    /// or a line saying there are none, and the leak check.
    public static func stepSummary(_ audit: PreviewAudit) -> String {
        var lines = ["", "### grove-report preview audit", ""]
        let findings = AuditFinding.all(audit)
        if findings.isEmpty {
            lines.append("No violations.")
        } else {
            lines += ["| violation | campaign | events |", "| --- | --- | ---: |"]
            for finding in findings {
                for campaign in finding.campaigns {
                    lines.append("| \(finding.violation) | \(escapedMarkdown(campaign.campaign.description)) | \(campaign.count) |")
                }
                if finding.withoutCampaign > 0 {
                    lines.append("| \(finding.violation) | (no campaign) | \(finding.withoutCampaign) |")
                }
            }
        }
        lines += ["", "Leak check: \(audit.leakCheck)", ""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The message of a workflow command: `%`, CR and LF percent-encoded, as the runner decodes them.
    static func escapedData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property value of a workflow command: as data, and `:` and `,` too, which end a value.
    static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingAll(":", with: "%3A").replacingAll(",", with: "%2C")
    }

    /// A table cell: nothing in it may end the cell, break the row, or be read as markup.
    static func escapedMarkdown(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "|", "*", "_", "`", "[", "]", "#", "~": out += "\\" + String(scalar)
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r", "\n": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
