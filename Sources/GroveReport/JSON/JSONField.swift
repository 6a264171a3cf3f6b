/// The kind of a JSON value.
enum JSONKind: UInt8, Sendable {
    case string, number, trueLiteral, falseLiteral, null, object, array
}

/// Where a parsed string or literal lives: in the line itself, or unescaped in the reader's scratch buffer.
struct ByteSpan {
    var start: Int
    var count: Int
    var inScratch: Bool
}

/// One top-level member of a parsed object.
struct JSONField {
    var key: ByteSpan
    /// The key resolved to a field of the event tables, when it is one.
    var name: FieldName?
    var kind: JSONKind
    /// Unescaped bytes for strings, the literal for numbers, the raw text for anything else.
    var value: ByteSpan

    /// What fills the room of a member list that no member has been written to.
    static let unused = JSONField(
        key: ByteSpan(start: 0, count: 0, inScratch: false), name: nil, kind: .null,
        value: ByteSpan(start: 0, count: 0, inScratch: false))
}
