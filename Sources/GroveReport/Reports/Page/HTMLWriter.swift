/// A byte buffer for the report page: markup is appended as written, text is escaped.
///
/// One growing buffer for the whole page keeps building linear in its size, whatever the number
/// of campaigns.
struct HTMLWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    /// Appends markup the page itself wrote (never text from the logs).
    mutating func raw(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// Appends text, escaped for element content and attribute values alike.
    mutating func text(_ value: String) {
        Self.appendEscaped(value.utf8, to: &bytes)
    }

    /// Appends text from the logs (campaign and variant names, file names…), escaped.
    mutating func text(_ value: ByteString) {
        Self.appendEscaped(value.bytes, to: &bytes)
    }

    /// Appends a column name of the reports (`preview_on_disabled_campaign`), escaped, with a
    /// line-break opportunity after each `_` so narrow headers wrap between words.
    mutating func columnName(_ name: String) {
        for (index, part) in name.split(separator: "_", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { raw("_<wbr>") }
            text(String(part))
        }
    }

    /// Appends an integer as text.
    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Escapes `& < > " '` (as Python's `html.escape` does), so text can never open an element
    /// or leave an attribute. Control
    /// characters stay what they are in the DOM (a name holding a tab is found as written): tab
    /// and LF as themselves, CR, the other C0 controls and DEL as numeric references (the parser
    /// would turn a raw CR into LF), NUL — which no HTML document can hold — as U+FFFD.
    static func appendEscaped<Bytes: Sequence<UInt8>>(_ text: Bytes, to output: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#x27;".utf8)
            case 0x09, 0x0A: output.append(byte)
            case 0x00: output.append(contentsOf: "&#xFFFD;".utf8)
            case 0x01..<0x20, 0x7F: output.append(contentsOf: "&#\(byte);".utf8)
            default: output.append(byte)
            }
        }
    }
}
