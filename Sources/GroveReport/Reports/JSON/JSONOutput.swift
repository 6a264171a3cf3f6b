/// A JSON document to write, with members in the order given (reports have a fixed key order).
indirect enum JSONOutput: Sendable, Equatable {
    case string(ByteString)
    case integer(Int)
    case bigInteger(Int128)
    /// A decimal in its shortest round-trip form; nil is written as `null`.
    case decimal(Double?)
    case bool(Bool)
    case null
    case array([JSONOutput])
    case object([Member])

    struct Member: Sendable, Equatable {
        var key: ByteString
        var value: JSONOutput

        init(_ key: String, _ value: JSONOutput) {
            self.key = ByteString(key)
            self.value = value
        }

        init(key: ByteString, _ value: JSONOutput) {
            self.key = key
            self.value = value
        }
    }

    static func text(_ string: String) -> JSONOutput { .string(ByteString(string)) }

    /// The document with two-space indentation and a final newline.
    func rendered() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output, indent: 0, pretty: true)
        output.append(0x0A)
        return output
    }

    /// The document on one line, without a newline: for NDJSON.
    func compact() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output, indent: 0, pretty: false)
        return output
    }

    private func write(to output: inout [UInt8], indent: Int, pretty: Bool) {
        switch self {
        case .string(let value): JSONText.append(value.bytes, to: &output)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .bigInteger(let value): output.append(contentsOf: String(value).utf8)
        case .decimal(let value): output.append(contentsOf: (value.map(DecimalFormat.shortest) ?? "null").utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let elements):
            writeContainer(elements, open: "[", close: "]", to: &output, indent: indent, pretty: pretty) { element, output in
                element.write(to: &output, indent: indent + 1, pretty: pretty)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", to: &output, indent: indent, pretty: pretty) { member, output in
                JSONText.append(member.key.bytes, to: &output)
                output.append(contentsOf: pretty ? ": ".utf8 : ":".utf8)
                member.value.write(to: &output, indent: indent + 1, pretty: pretty)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: Unicode.Scalar, close: Unicode.Scalar, to output: inout [UInt8],
        indent: Int, pretty: Bool, element writeElement: (Element, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: open))
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if pretty { JSONOutput.newline(to: &output, indent: indent + 1) }
            writeElement(element, &output)
        }
        if pretty && !elements.isEmpty { JSONOutput.newline(to: &output, indent: indent) }
        output.append(UInt8(ascii: close))
    }

    private static func newline(to output: inout [UInt8], indent: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }
}
