/// A whole JSON document as a tree, for small inputs such as the configuration file.
///
/// Built on the same strict scanner as the hot-path reader; object members keep their order and
/// duplicates (the caller decides what a duplicate means).
indirect enum JSONValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// Parses a complete document; nil when it is not valid JSON.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer)
            scanner.skipWhitespace()
            guard let value = scanner.parseTree(depth: 1) else { return nil }
            scanner.skipWhitespace()
            return scanner.atEnd ? value : nil
        }
    }

    /// The value of the first member named `key`, when this is an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(left), .string(right)): return left == right
        case let (.number(left), .number(right)): return left == right
        case let (.bool(left), .bool(right)): return left == right
        case (.null, .null): return true
        case let (.array(left), .array(right)): return left == right
        case let (.object(left), .object(right)):
            return left.elementsEqual(right) { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

extension JSONScanner {
    /// Parses any value into a tree, at `depth` (a top-level container is depth 1).
    mutating func parseTree(depth: Int) -> JSONValue? {
        guard depth <= JSONObjectReader.maximumDepth, index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return parseStringValue().map(JSONValue.string)
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipWhitespace()
                guard let key = parseStringValue() else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = parseTree(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}")) ? .object(members) : nil
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                skipWhitespace()
                guard let value = parseTree(depth: depth + 1) else { return nil }
                elements.append(value)
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]")) ? .array(elements) : nil
        case UInt8(ascii: "t"):
            return literal("true", .trueLiteral).map { _ in .bool(true) }
        case UInt8(ascii: "f"):
            return literal("false", .falseLiteral).map { _ in .bool(false) }
        case UInt8(ascii: "n"):
            return literal("null", .null).map { _ in .null }
        default:
            let start = index
            guard skipNumber() else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            return Double(text).map(JSONValue.number)
        }
    }

    private mutating func parseStringValue() -> String? {
        var scratch: [UInt8] = []
        guard let span = parseString(scratch: &scratch) else { return nil }
        let range = span.start..<(span.start + span.count)
        if span.inScratch { return String(decoding: scratch[range], as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
