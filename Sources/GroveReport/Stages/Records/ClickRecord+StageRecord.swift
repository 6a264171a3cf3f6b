/// `click`, keyed by clickId: the earliest line's attributes and the line count.
extension ClickRecord: KeyedStageRecord {
    static let kind = "click"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<ClickRecord>> { \.attribution.clicks }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("ts", encoder.instant(earliest.ts)),
            JSONOutput.Member("route", encoder.route(earliest.route)),
            JSONOutput.Member("appKey", encoder.text(earliest.appKey)),
            JSONOutput.Member("slug", encoder.text(earliest.slug)),
            JSONOutput.Member("utm", encoder.utm(earliest.utm)),
            JSONOutput.Member("lines", .integer(lines)),
        ]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> ClickRecord {
        let utm = try decoder.utm("utm")
        let click = LinkClick(
            ts: try decoder.instant("ts"), clickId: key, appKey: try decoder.symbol(member: "appKey"),
            slug: try decoder.symbol(member: "slug"), route: try decoder.route("route"), utm: utm)
        var record = ClickRecord(click)
        record.lines = try decoder.integer("lines")
        return record
    }
}
