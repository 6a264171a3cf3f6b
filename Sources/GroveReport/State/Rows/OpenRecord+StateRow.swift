/// An open row: keyed by openId; the original line's ts and clickId, then the line count of each
/// payload, the original's payload given by its place among them.
extension OpenRecord: StateRowRecord {
    static let rowKind: UInt8 = 3

    static func writeKey(_ key: Symbol, to writer: inout StateRowWriter) throws(StateError) { writer.text(key) }

    static func readKey(from reader: inout StateRowReader) throws(StateError) -> Symbol { try reader.requiredText() }

    func write(key _: Symbol, to writer: inout StateRowWriter) throws(StateError) {
        writer.instant(original.ts)
        writer.text(original.clickId)
        let originalPayload = OpenPayload(original)
        writer.count(payloads.entries.enumerated().first { $0.element.value == originalPayload }?.offset ?? 0)
        writer.count(payloads.entries.count)
        for entry in payloads.entries {
            try Self.write(entry.value, to: &writer)
            writer.count(entry.lines)
        }
    }

    /// App key, slug, context (kept whole: it is opaque), utm.
    private static func write(_ payload: OpenPayload, to writer: inout StateRowWriter) throws(StateError) {
        try writer.name(payload.appKey)
        try writer.name(payload.slug)
        writer.text(payload.context)
        try writer.utm(payload.utm)
    }

    static func read(key: Symbol, from reader: inout StateRowReader) throws(StateError) -> OpenRecord {
        let ts = try reader.instant()
        let clickId = try reader.text()
        let originalPlace = try reader.count()
        var entries: [ValueCounts<OpenPayload>.Entry] = []
        for _ in 0..<(try reader.count()) {
            entries.append(.init(value: try Self.payload(from: &reader), lines: try reader.count()))
        }
        guard originalPlace < entries.count else { throw reader.damaged("an open's original payload is not among its payloads") }
        let payload = entries[originalPlace].value
        let original = LinkOpen(
            ts: ts, openId: key, appKey: payload.appKey, slug: payload.slug, clickId: clickId, context: payload.context,
            utm: payload.utm)
        var record = OpenRecord(original)
        record.payloads = ValueCounts(entries: entries)
        return record
    }

    private static func payload(from reader: inout StateRowReader) throws(StateError) -> OpenPayload {
        let open = LinkOpen(
            ts: Instant(seconds: 0, nanoseconds: 0), openId: reader.symbols.intern([]),
            appKey: try reader.requiredName(), slug: try reader.requiredName(), clickId: nil, context: try reader.text(),
            utm: try reader.utm())
        return OpenPayload(open)
    }
}
