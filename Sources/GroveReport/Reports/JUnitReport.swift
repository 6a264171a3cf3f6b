/// Renders the preview audit as a JUnit XML report for CI systems (GitLab, Jenkins…): one test
/// case per campaign and violation name, failing when its count is above 0, and one for the
/// leak check (docs/AUDIT.md, validate).
public enum JUnitReport {
    /// The leak check's test case class: it is about the whole run, not a campaign.
    static let wholeRun = "(all)"

    public static func xml(_ audit: PreviewAudit) -> [UInt8] {
        var cases: [String] = []
        var failures = 0
        for campaign in audit.campaigns {
            for violation in campaign.violations.named {
                cases.append(testCase(className: campaign.campaign.description, name: violation.name, failures: violation.count))
                if violation.count > 0 { failures += 1 }
            }
        }
        cases.append(testCase(className: wholeRun, name: "leak_check", failures: audit.leakCheck))
        if audit.leakCheck != 0 { failures += 1 }
        // The totals hold what no campaign accounts for (links that paired nothing): kept as properties.
        let properties = audit.violations.named.map {
            "    <property name=\"violations.\($0.name)\" value=\"\($0.count)\"/>"
        }
        let lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuite name="preview-audit" tests="\#(cases.count)" failures="\#(failures)" errors="0" skipped="0">"#,
            "  <properties>",
        ] + properties + ["  </properties>"] + cases + ["</testsuite>"]
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    private static func testCase(className: String, name: String, failures: Int) -> String {
        let opening = "  <testcase classname=\"\(escaped(className))\" name=\"\(escaped(name))\""
        guard failures > 0 else { return opening + "/>" }
        let subject = className == wholeRun ? "the run" : "campaign \(className)"
        return opening + ">\n"
            + "    <failure message=\"\(failures) events\" type=\"\(escaped(name))\">"
            + escaped("\(name): \(failures) events in \(subject)") + "</failure>\n"
            + "  </testcase>"
    }

    /// Text safe in XML 1.0 attribute values and content: markup characters as entities, tab,
    /// LF and CR as character references (so attribute normalization keeps them), and characters
    /// XML cannot carry at all as U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
