/// `binding`, keyed by clickId: the winning line and the line count of each normalized email
/// (sealed in the state).
extension BindingRecord: KeyedStageRecord {
    static let kind = "binding"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<BindingRecord>> { \.attribution.bindings }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("ts", encoder.instant(winner.ts)),
            JSONOutput.Member("email", encoder.text(winner.normalizedEmail)),
            JSONOutput.Member("emails", .array(emails.entries.map { .array([encoder.text($0.value), .integer($0.lines)]) })),
        ]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> BindingRecord {
        let winner = ClickBind(ts: try decoder.instant("ts"), clickId: key, normalizedEmail: try decoder.symbol(member: "email"))
        var entries: [ValueCounts<Symbol>.Entry] = []
        for entry in try decoder.array("emails") {
            guard case .array(let pair) = entry, pair.count == 2, case .string(let email) = pair[0] else {
                throw decoder.failure("bad email count")
            }
            entries.append(.init(value: decoder.symbol(email), lines: try decoder.integer(pair[1])))
        }
        guard !entries.isEmpty else { throw decoder.failure("a binding needs an email") }
        var record = BindingRecord(winner)
        record.emails = ValueCounts(entries: entries)
        return record
    }
}
