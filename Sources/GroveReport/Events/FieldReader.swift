/// Reads typed fields out of a parsed object, turning each failure into its reject reason.
///
/// String fields come back as bytes of the line; the validator interns them only once the whole
/// line has passed, so rejected lines never grow the symbol table.
///
/// JSON `null` counts as absent everywhere (docs/EVENTS.md, Field types).
struct FieldReader {
    static let maximumIDBytes = 256
    static let maximumTextBytes = 4096
    /// 2^53 − 1, the largest integer every JSON consumer represents exactly.
    static let maximumInteger: Int64 = 9_007_199_254_740_991

    let object: ParsedObject

    /// The field's value unless it is absent or `null`.
    private func present(_ name: FieldName) -> JSONField? {
        guard let field = object.field(name), field.kind != .null else { return nil }
        return field
    }

    /// The unescaped bytes of a string field, or nil when absent; `bad_field` when not a string.
    func stringBytes(_ name: FieldName) throws(RejectReason) -> UnsafeBufferPointer<UInt8>? {
        guard let field = present(name) else { return nil }
        guard field.kind == .string else { throw .badField(name.keyText) }
        return object.bytes(field.value)
    }

    func requiredID(_ name: FieldName) throws(RejectReason) -> UnsafeBufferPointer<UInt8> {
        guard let id = try optionalID(name) else { throw .missingField(name.keyText) }
        return id
    }

    func optionalID(_ name: FieldName) throws(RejectReason) -> UnsafeBufferPointer<UInt8>? {
        guard let bytes = try stringBytes(name) else { return nil }
        guard (1...Self.maximumIDBytes).contains(bytes.count) else { throw .badField(name.keyText) }
        return bytes
    }

    func optionalText(_ name: FieldName) throws(RejectReason) -> UnsafeBufferPointer<UInt8>? {
        guard let bytes = try stringBytes(name) else { return nil }
        guard bytes.count <= Self.maximumTextBytes else { throw .badField(name.keyText) }
        return bytes
    }

    /// A `utm_*` parameter: text, with an empty string counting as absent.
    func utm(_ name: FieldName) throws(RejectReason) -> UnsafeBufferPointer<UInt8>? {
        guard let bytes = try optionalText(name), !bytes.isEmpty else { return nil }
        return bytes
    }

    func requiredBool(_ name: FieldName) throws(RejectReason) -> Bool {
        guard let value = try optionalBool(name) else { throw .missingField(name.keyText) }
        return value
    }

    func optionalBool(_ name: FieldName) throws(RejectReason) -> Bool? {
        guard let field = present(name) else { return nil }
        switch field.kind {
        case .trueLiteral: return true
        case .falseLiteral: return false
        default: throw .badField(name.keyText)
        }
    }

    /// An integer literal without fraction or exponent in 0...2^53−1 (`-0` is 0).
    func requiredInteger(_ name: FieldName) throws(RejectReason) -> Int64 {
        guard let field = present(name) else { throw .missingField(name.keyText) }
        guard field.kind == .number else { throw .badField(name.keyText) }
        let literal = object.bytes(field.value)
        if literal.first == UInt8(ascii: "-") {
            guard literal.count == 2, literal[1] == UInt8(ascii: "0") else { throw .badField(name.keyText) }
            return 0
        }
        guard literal.count <= 16 else { throw .badField(name.keyText) }
        var value: Int64 = 0
        for byte in literal {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .badField(name.keyText) }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        guard value <= Self.maximumInteger else { throw .badField(name.keyText) }
        return value
    }

    /// Whether a Grona event is preview: either flag says so (docs/EVENTS.md). `required` is the
    /// flag the event type must carry (`isPreview` on decisions, `preview` on the others); the
    /// other is optional, and read after it.
    func previewFlags(required: FieldName) throws(RejectReason) -> Bool {
        let flag = try requiredBool(required)
        let other = try optionalBool(required == .isPreview ? .preview : .isPreview) ?? false
        return flag || other
    }

    /// A string field that must be one of a few words; `default` when absent.
    func keyword<Value>(
        _ name: FieldName, _ choices: KeyValuePairs<StaticString, Value>, default defaultValue: Value?
    ) throws(RejectReason) -> Value {
        guard let bytes = try stringBytes(name) else {
            guard let defaultValue else { throw .missingField(name.keyText) }
            return defaultValue
        }
        for (word, value) in choices where ParsedObject.equal(bytes, word.utf8Start, word.utf8CodeUnitCount) {
            return value
        }
        throw .badField(name.keyText)
    }

    func requiredTimestamp(_ name: FieldName) throws(RejectReason) -> Instant {
        guard let instant = try optionalTimestamp(name) else { throw .missingField(name.keyText) }
        return instant
    }

    func optionalTimestamp(_ name: FieldName) throws(RejectReason) -> Instant? {
        guard let field = present(name) else { return nil }
        guard field.kind == .string, let instant = TimestampParser.parse(object.bytes(field.value)) else {
            throw .badField(name.keyText)
        }
        return instant
    }
}
