/// A table of counts with row and column labels, a cell above 0 highlighted when asked: the
/// audit's totals and violations (and any further kind × outcome grid) share it.
struct CountTable {
    var caption: String
    var corner: String
    var columns: [String]
    var rows: [(label: String, counts: [Int])]
    /// Highlight cells above 0 (violations), not just show them.
    var highlightsNonZero = false

    func write(to page: inout HTMLWriter) {
        page.raw("<table><caption class=\"note\">")
        page.text(caption)
        page.raw("</caption><thead><tr><th class=\"name\">")
        page.text(corner)
        page.raw("</th>")
        for column in columns {
            page.raw("<th>")
            page.columnName(column)
            page.raw("</th>")
        }
        page.raw("</tr></thead><tbody>")
        for row in rows {
            let flagged = highlightsNonZero && row.counts.contains { $0 > 0 }
            page.raw(flagged ? "<tr class=\"flagged\"><td class=\"name\">" : "<tr><td class=\"name\">")
            page.text(row.label)
            page.raw("</td>")
            for count in row.counts {
                page.raw(highlightsNonZero && count > 0 ? "<td class=\"bad\">" : "<td>")
                page.number(count)
                page.raw("</td>")
            }
            page.raw("</tr>")
        }
        page.raw("</tbody></table>\n")
    }

    /// One row of named values (already formatted), under their report column names.
    static func values(columns: [String], values: [String], to page: inout HTMLWriter) {
        page.raw("<table><thead><tr>")
        for column in columns {
            page.raw("<th>")
            page.columnName(column)
            page.raw("</th>")
        }
        page.raw("</tr></thead><tbody><tr>")
        for value in values {
            page.raw("<td>")
            page.text(value)
            page.raw("</td>")
        }
        page.raw("</tr></tbody></table>\n")
    }
}
