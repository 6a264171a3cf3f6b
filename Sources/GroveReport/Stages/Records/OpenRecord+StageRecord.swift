/// `open`, keyed by openId: the original line and the line count of each payload.
extension OpenRecord: KeyedStageRecord {
    static let kind = "open"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<OpenRecord>> { \.attribution.opens }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("ts", encoder.instant(original.ts)),
            JSONOutput.Member("clickId", encoder.text(original.clickId)),
            JSONOutput.Member("payload", Self.payload(OpenPayload(original), encoder)),
            JSONOutput.Member("payloads", .array(payloads.entries.map { .array([Self.payload($0.value, encoder), .integer($0.lines)]) })),
        ]
    }

    /// `[appKey, slug, context, utm]`.
    private static func payload(_ payload: OpenPayload, _ encoder: RecordEncoder) -> JSONOutput {
        .array([encoder.text(payload.appKey), encoder.text(payload.slug), encoder.text(payload.context), encoder.utm(payload.utm)])
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> OpenRecord {
        let payload = try payload(try decoder.array("payload"), &decoder)
        let original = LinkOpen(
            ts: try decoder.instant("ts"), openId: key, appKey: payload.appKey, slug: payload.slug,
            clickId: try decoder.optionalSymbol(decoder.value["clickId"] ?? .null), context: payload.context, utm: payload.utm)
        var entries: [ValueCounts<OpenPayload>.Entry] = []
        for entry in try decoder.array("payloads") {
            guard case .array(let pair) = entry, pair.count == 2, case .array(let parts) = pair[0] else {
                throw decoder.failure("bad payload count")
            }
            entries.append(.init(value: try Self.payload(parts, &decoder), lines: try decoder.integer(pair[1])))
        }
        guard !entries.isEmpty else { throw decoder.failure("an open needs a payload") }
        var record = OpenRecord(original)
        record.payloads = ValueCounts(entries: entries)
        return record
    }

    private static func payload(_ parts: [JSONValue], _ decoder: inout RecordDecoder) throws(RecordError) -> OpenPayload {
        guard parts.count == 4 else { throw decoder.failure("a payload is [appKey, slug, context, utm]") }
        let open = LinkOpen(
            ts: Instant(seconds: 0, nanoseconds: 0), openId: decoder.symbol(""),
            appKey: decoder.symbol(try decoder.string(parts[0])), slug: decoder.symbol(try decoder.string(parts[1])),
            clickId: nil, context: try decoder.optionalSymbol(parts[2]), utm: try decoder.utm(parts[3]))
        return OpenPayload(open)
    }
}
