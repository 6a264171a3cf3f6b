/// A CSV table per docs/OUTPUTS.md, Formats: RFC 4180 quoting, `\n` line ends, UTF-8, and the
/// spreadsheet-formula guard on text cells.
struct CSVTable: Sendable {
    let header: [String]
    private(set) var rows: [[JSONOutput]] = []

    init(header: [String]) {
        self.header = header
    }

    /// Appends a row of scalar cells; strings are log text, hostile until proven otherwise.
    mutating func append(_ row: [JSONOutput]) {
        precondition(row.count == header.count, "a CSV row must have one cell per header column")
        rows.append(row)
    }

    func rendered() -> [UInt8] {
        var output: [UInt8] = []
        Self.appendLine(header.map { Array($0.utf8) }, to: &output)
        for row in rows { Self.appendLine(row.map(Self.cell), to: &output) }
        return output
    }

    private static func appendLine(_ cells: [[UInt8]], to output: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendQuotedIfNeeded(cell, to: &output)
        }
        output.append(0x0A)
    }

    /// A cell's text: numbers and booleans as in JSON, guarded strings, empty for null.
    static func cell(_ value: JSONOutput) -> [UInt8] {
        switch value {
        case .string(let text): guardedAgainstFormula(text.bytes)
        case .null, .decimal(nil): []
        default: value.compact()
        }
    }

    /// Prefixes `'` to text a spreadsheet would run as a formula: it starts with `=`, `+`, `-`,
    /// `@`, tab or CR and is not a plain number.
    static func guardedAgainstFormula(_ text: [UInt8]) -> [UInt8] {
        guard let first = text.first,
              [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains(first),
              !isNumber(text)
        else { return text }
        return [UInt8(ascii: "'")] + text
    }

    /// Matches `[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`.
    static func isNumber(_ text: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
        if digits() > 0 {
            if index < text.count, text[index] == UInt8(ascii: ".") {
                index += 1
                _ = digits()
            }
        } else {
            guard index < text.count, text[index] == UInt8(ascii: ".") else { return false }
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    private static func appendQuotedIfNeeded(_ cell: [UInt8], to output: inout [UInt8]) {
        let needsQuotes = cell.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
        guard needsQuotes else {
            output.append(contentsOf: cell)
            return
        }
        output.append(UInt8(ascii: "\""))
        for byte in cell {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }
}
