/// The page's first section: what the run read and where every line went (docs/PAGE.md, "the
/// run"). It shows only the accounting fields of `summary.json`, which `run`, the Spark stages
/// and incremental runs all agree on.
enum RunSection {
    /// Reject reasons listed by name; the rest are summed in one line.
    static let topRejectReasons = 10
    /// Input errors listed; the rest are counted (all are in `summary.json`).
    static let listedInputErrors = 100

    static func write(_ accounting: Accounting, to page: inout HTMLWriter) {
        page.raw("<section id=\"run\">\n<h2>The run</h2>\n<div class=\"figures\">")
        figure(&page, accounting.files, "input files")
        figure(&page, accounting.bytes.read, "bytes read")
        figure(&page, accounting.bytes.decompressed, "bytes decompressed")
        figure(&page, accounting.lines, "lines")
        figure(&page, accounting.acceptedTotal, "accepted")
        figure(&page, accounting.ignored.reduce(0, +), "ignored")
        figure(&page, accounting.rejectedTotal, "rejected")
        figure(&page, accounting.inputErrors.count, "input errors")
        page.raw("</div>\n")
        bucketBar(accounting, to: &page)
        page.raw("<h3>Accepted and ignored lines</h3>\n")
        CountTable(
            caption: "accepted lines by event type, ignored lines by reason", corner: "bucket",
            columns: EventType.allCases.map(\.name) + IgnoreReason.allCases.map(\.name),
            rows: [("lines", EventType.allCases.map(accounting.accepted) + IgnoreReason.allCases.map(accounting.ignored))]
        ).write(to: &page)
        rejectReasons(accounting, to: &page)
        inputErrors(accounting, to: &page)
        page.raw("</section>\n")
    }

    static func figure(_ page: inout HTMLWriter, _ value: Int, _ label: String) {
        page.raw("<div class=\"figure\"><b>")
        page.number(value)
        page.raw("</b><span>")
        page.text(label)
        page.raw("</span></div>")
    }

    /// Accepted, ignored and rejected lines as one stacked bar, each part labelled.
    private static func bucketBar(_ accounting: Accounting, to page: inout HTMLWriter) {
        let parts: [(String, Int, SVG.Colour)] = [
            ("accepted", accounting.acceptedTotal, .blue),
            ("ignored", accounting.ignored.reduce(0, +), .grey),
            ("rejected", accounting.rejectedTotal, .vermillion),
        ]
        let total = max(accounting.lines, 1)
        let width = 600.0
        SVG.open(&page, width: width, height: 48, label: "lines by bucket")
        var x = 0.0
        for (name, count, colour) in parts where count > 0 {
            let part = width * Double(count) / Double(total)
            SVG.rect(&page, x: x, y: 0, width: part, height: 18, fill: colour, title: "\(name): \(count) of \(accounting.lines) lines")
            x += part
        }
        var legend = 0.0
        for (name, count, colour) in parts {
            SVG.rect(&page, x: legend, y: 30, width: 12, height: 12, fill: colour)
            let share = accounting.lines == 0 ? "" : " (\(NumberText.percent(Double(count) / Double(accounting.lines))))"
            SVG.text(&page, "\(name) \(count)\(share)", x: legend + 16, y: 41)
            legend += 200
        }
        SVG.close(&page)
        page.raw("\n")
    }

    private static func rejectReasons(_ accounting: Accounting, to page: inout HTMLWriter) {
        page.raw("<h3>Rejected lines</h3>\n")
        guard accounting.rejectedTotal > 0 else { return page.raw("<p>No line was rejected.</p>\n") }
        let reasons = accounting.rejected.map { ($0.key.text, $0.value) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        page.raw("<table><caption class=\"note\">top reject reasons (every reject is in rejects.ndjson)</caption><thead><tr><th class=\"name\">reason</th><th>lines</th><th>of all lines</th></tr></thead><tbody>")
        for (reason, count) in reasons.prefix(topRejectReasons) {
            page.raw("<tr><td class=\"name\"><code>")
            page.text(reason)
            page.raw("</code></td><td>")
            page.number(count)
            page.raw("</td><td>")
            page.text(NumberText.percent(Double(count) / Double(accounting.lines)))
            page.raw("</td></tr>")
        }
        if reasons.count > topRejectReasons {
            let rest = reasons.dropFirst(topRejectReasons)
            page.raw("<tr><td class=\"name\">")
            page.text("\(rest.count) other reasons")
            page.raw("</td><td>")
            page.number(rest.reduce(0) { $0 + $1.1 })
            page.raw("</td><td></td></tr>")
        }
        page.raw("</tbody></table>\n")
    }

    private static func inputErrors(_ accounting: Accounting, to page: inout HTMLWriter) {
        page.raw("<h3>Input errors</h3>\n")
        let errors = accounting.inputErrors
        guard !errors.isEmpty else { return page.raw("<p>No input error: every input was read to its end.</p>\n") }
        page.raw("<div class=\"banner bad\"><strong>")
        page.text("\(errors.count) input error\(errors.count == 1 ? "" : "s")")
        page.raw("</strong>the lines before each fault were counted; the run exits 1.</div>\n")
        page.raw("<table><thead><tr><th class=\"name\">file</th><th class=\"name\">error</th><th>compressed offset</th></tr></thead><tbody>")
        for error in errors.prefix(listedInputErrors) {
            page.raw("<tr><td class=\"name\">")
            page.text(error.file)
            page.raw("</td><td class=\"name\">")
            page.text(error.error)
            page.raw("</td><td>")
            page.number(error.offset)
            page.raw("</td></tr>")
        }
        page.raw("</tbody></table>\n")
        if errors.count > listedInputErrors {
            page.raw("<p class=\"note\">")
            page.text("\(errors.count - listedInputErrors) more input errors are listed in summary.json.")
            page.raw("</p>\n")
        }
    }
}
