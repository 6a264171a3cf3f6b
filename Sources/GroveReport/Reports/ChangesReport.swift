/// Renders `changes.csv` of a `run --state`: every value of `attribution.csv` and `exposure.csv`
/// that differs from the previous successful run's on the same state, with the values written
/// as in those files. Key columns (campaign, variant) identify rows and are not listed.
enum ChangesReport {
    static let header = ["report", "campaign", "variant", "column", "previous", "current"]

    /// One report's rows before and after, as cells in its header order.
    struct Comparison {
        var table: HistoryTable
        var previous: [[JSONOutput]]
        var current: [[JSONOutput]]
    }

    static func csv(_ comparisons: [Comparison]) -> [UInt8] {
        var table = CSVTable(header: header)
        for comparison in comparisons.sorted(by: { $0.table.report < $1.table.report }) {
            for row in changes(comparison) { table.append(row) }
        }
        return table.rendered()
    }

    private static func changes(_ comparison: Comparison) -> [[JSONOutput]] {
        let columns = comparison.table.columns
        let keyCount = comparison.table.keyColumns
        let previous = byKey(comparison.previous, keyCount)
        let current = byKey(comparison.current, keyCount)
        let keys = Set(previous.keys).union(current.keys).sorted { $0.lexicographicallyPrecedes($1) }
        var rows: [[JSONOutput]] = []
        for key in keys {
            for column in keyCount..<columns.count {
                let before = previous[key].map { CSVTable.cell($0[column]) } ?? []
                let after = current[key].map { CSVTable.cell($0[column]) } ?? []
                guard before != after else { continue }
                rows.append([
                    .text(comparison.table.report), .string(key[0]), keyCount > 1 ? .string(key[1]) : .null,
                    .text(columns[column].name), .string(ByteString(before)), .string(ByteString(after)),
                ])
            }
        }
        return rows
    }

    /// Rows by their raw key texts (campaign, variant), for byte-wise order.
    private static func byKey(_ rows: [[JSONOutput]], _ keyCount: Int) -> [[ByteString]: [JSONOutput]] {
        var indexed: [[ByteString]: [JSONOutput]] = [:]
        for row in rows {
            let key = row.prefix(keyCount).map { cell -> ByteString in
                if case .string(let text) = cell { return text }
                return ByteString(CSVTable.cell(cell))
            }
            indexed[key] = row
        }
        return indexed
    }
}
