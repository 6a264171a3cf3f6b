/// A click row: keyed by clickId; the earliest line's ts, route, app key, slug and utm values,
/// and the line count.
extension ClickRecord: StateRowRecord {
    static let rowKind: UInt8 = 1

    static func writeKey(_ key: Symbol, to writer: inout StateRowWriter) throws(StateError) { writer.text(key) }

    static func readKey(from reader: inout StateRowReader) throws(StateError) -> Symbol { try reader.requiredText() }

    func write(key _: Symbol, to writer: inout StateRowWriter) throws(StateError) {
        writer.instant(earliest.ts)
        writer.byte(earliest.route.rawValue)
        try writer.name(earliest.appKey)
        try writer.name(earliest.slug)
        try writer.utm(earliest.utm)
        writer.count(lines)
    }

    static func read(key: Symbol, from reader: inout StateRowReader) throws(StateError) -> ClickRecord {
        let ts = try reader.instant()
        guard let route = Route(rawValue: try reader.byte()) else { throw reader.damaged("an unknown route") }
        let click = LinkClick(
            ts: ts, clickId: key, appKey: try reader.requiredName(), slug: try reader.requiredName(), route: route,
            utm: try reader.utm())
        var record = ClickRecord(click)
        record.lines = try reader.count()
        return record
    }
}

extension StateRowWriter {
    /// Campaign, source, medium, content, term: five names.
    mutating func utm(_ utm: UTMParameters) throws(StateError) {
        for value in utm.all { try name(value) }
    }
}

extension StateRowReader {
    mutating func utm() throws(StateError) -> UTMParameters {
        UTMParameters(campaign: try name(), source: try name(), medium: try name(), content: try name(), term: try name())
    }
}
