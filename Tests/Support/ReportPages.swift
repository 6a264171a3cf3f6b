import Foundation
@testable import GroveReport

/// Pages of `report.html` and the hostile names they must show as text, for the page tests with
/// and without a browser (`ReportPageTests` in the unit tests, `BrowserTests`).
struct ReportPageTests {
    static let scriptName = "<script>alert(1)</script>"
    static let formulaName = #"=HYPERLINK("http://x")"#

    /// The page of a run over `lines` (NDJSON lines), as `run` would write it.
    static func page(_ lines: [String], configuration: Configuration? = nil, wallSeconds: Double = 1) -> String {
        let state = partialState(lines).joined(scope: .unit)
        var accounting = state.accounting
        accounting.files = 1
        let result = RunResult(
            accounting: accounting, attribution: state.attributionResult(),
            exposure: state.exposureResult(configuration: configuration), wallSeconds: wallSeconds)
        return String(decoding: ReportPage.html(result), as: UTF8.self)
    }

    /// JSON string content for a name (quotes and backslashes escaped).
    static func json(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// A small run over hostile names: clicks and decisions in campaigns named like markup and
    /// like a spreadsheet formula, with a control in each.
    static let hostileLines: [String] = {
        var lines: [String] = []
        for (index, name) in [scriptName, formulaName].enumerated() {
            let campaign = json(name)
            lines.append(AttributionTests.click("k\(index)", "2026-03-01T10:00:00Z", campaign: campaign))
            lines += (1...10).map { ExposureTests.decision("c\(index)-\($0)", campaign, "ctl", control: true) }
            lines += (1...10).map { ExposureTests.decision("v\(index)-\($0)", campaign, json(scriptName)) }
        }
        return lines
    }()
}

/// Finds what a page would load from elsewhere.
enum PageScan {
    /// Every attribute that loads or links (`src`, `href`…) to anything but a fragment (`#…`),
    /// every `@import`, and every `url(` to anything but a fragment: a self-contained page has none.
    static func externalReferences(_ page: String) -> [String] {
        var found: [String] = []
        let attribute = #"(?i)\b(?:src|href|xlink:href|action|srcset|poster|data|formaction)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))"#
        for groups in matches(attribute, in: page) {
            let value = groups.dropFirst().compactMap { $0 }.first ?? ""
            if !value.trimmingCharacters(in: .whitespaces).hasPrefix("#") { found.append(groups[0] ?? "") }
        }
        for groups in matches(#"(?i)@import|url\(\s*["']?\s*([^"')\s]*)"#, in: page) {
            if !(groups.count > 1 && groups[1]?.hasPrefix("#") == true) { found.append(groups[0] ?? "") }
        }
        return found
    }

    /// The whole match and each capture group (nil when it did not take part) of every match.
    private static func matches(_ pattern: String, in text: String) -> [[String?]] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) }
            }
        }
    }
}
