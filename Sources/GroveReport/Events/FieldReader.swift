/// Reads typed fields out of a parsed object, turning each failure into its reject reason.
///
/// JSON `null` counts as absent everywhere (SPEC section 2).
struct FieldReader {
    static let maximumIDBytes = 256
    static let maximumTextBytes = 4096
    /// 2^53 − 1, the largest integer every JSON consumer represents exactly.
    static let maximumInteger: Int64 = 9_007_199_254_740_991

    let object: ParsedObject

    /// The field's value unless it is absent or `null`.
    private func present(_ name: StaticString) -> JSONField? {
        guard let field = object.field(name), field.kind != .null else { return nil }
        return field
    }

    private static func missing(_ name: StaticString) -> RejectReason {
        .missingField(ByteString(name.description))
    }

    private static func bad(_ name: StaticString) -> RejectReason {
        .badField(ByteString(name.description))
    }

    /// The unescaped bytes of a string field, or nil when absent; `bad_field` when not a string.
    func stringBytes(_ name: StaticString) throws(RejectReason) -> UnsafeBufferPointer<UInt8>? {
        guard let field = present(name) else { return nil }
        guard field.kind == .string else { throw Self.bad(name) }
        return object.bytes(field.value)
    }

    func requiredID(_ name: StaticString) throws(RejectReason) -> ByteString {
        guard let id = try optionalID(name) else { throw Self.missing(name) }
        return id
    }

    func optionalID(_ name: StaticString) throws(RejectReason) -> ByteString? {
        guard let bytes = try stringBytes(name) else { return nil }
        guard (1...Self.maximumIDBytes).contains(bytes.count) else { throw Self.bad(name) }
        return ByteString(bytes)
    }

    func optionalText(_ name: StaticString) throws(RejectReason) -> ByteString? {
        guard let bytes = try stringBytes(name) else { return nil }
        guard bytes.count <= Self.maximumTextBytes else { throw Self.bad(name) }
        return ByteString(bytes)
    }

    /// Text that is only checked, never kept (`destination`, `currency`).
    func checkText(_ name: StaticString) throws(RejectReason) {
        if let bytes = try stringBytes(name), bytes.count > Self.maximumTextBytes { throw Self.bad(name) }
    }

    /// A `utm_*` parameter: text, with an empty string counting as absent.
    func utm(_ name: StaticString) throws(RejectReason) -> ByteString? {
        guard let text = try optionalText(name), !text.isEmpty else { return nil }
        return text
    }

    func requiredBool(_ name: StaticString) throws(RejectReason) -> Bool {
        guard let value = try optionalBool(name) else { throw Self.missing(name) }
        return value
    }

    func optionalBool(_ name: StaticString) throws(RejectReason) -> Bool? {
        guard let field = present(name) else { return nil }
        switch field.kind {
        case .trueLiteral: return true
        case .falseLiteral: return false
        default: throw Self.bad(name)
        }
    }

    /// An integer literal without fraction or exponent in 0...2^53−1 (`-0` is 0).
    func requiredInteger(_ name: StaticString) throws(RejectReason) -> Int64 {
        guard let field = present(name) else { throw Self.missing(name) }
        guard field.kind == .number else { throw Self.bad(name) }
        let literal = object.bytes(field.value)
        if literal.first == UInt8(ascii: "-") {
            guard literal.count == 2, literal[1] == UInt8(ascii: "0") else { throw Self.bad(name) }
            return 0
        }
        guard literal.count <= 16 else { throw Self.bad(name) }
        var value: Int64 = 0
        for byte in literal {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw Self.bad(name) }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        guard value <= Self.maximumInteger else { throw Self.bad(name) }
        return value
    }

    /// A string field that must be one of a few words; `default` when absent.
    func keyword<Value>(
        _ name: StaticString, _ choices: KeyValuePairs<StaticString, Value>, default defaultValue: Value?
    ) throws(RejectReason) -> Value {
        guard let bytes = try stringBytes(name) else {
            guard let defaultValue else { throw Self.missing(name) }
            return defaultValue
        }
        for (word, value) in choices where ParsedObject.equal(bytes, word.utf8Start, word.utf8CodeUnitCount) {
            return value
        }
        throw Self.bad(name)
    }

    func requiredTimestamp(_ name: StaticString) throws(RejectReason) -> Instant {
        guard let field = present(name) else { throw Self.missing(name) }
        guard field.kind == .string, let instant = TimestampParser.parse(object.bytes(field.value)) else {
            throw Self.bad(name)
        }
        return instant
    }
}
