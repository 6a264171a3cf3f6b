/// `click_join`, keyed by clickId: the click's campaign and route, and the opens and bindings
/// resolved to it.
extension ClickJoin: KeyedStageRecord {
    static let kind = "click_join"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<ClickJoin>> { \.joins.clickJoins }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("click", click.map { .array([encoder.text($0.campaign), encoder.route($0.route)]) } ?? .null),
            JSONOutput.Member("counts", encoder.counts([opens, openRetries, openConflicts, bindings, bindRetries, bindConflicts])),
            JSONOutput.Member("click_ts", clickTs.map(encoder.instant) ?? .null),
            JSONOutput.Member("bind_ts", bindTs.map(encoder.instant) ?? .null),
        ]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> ClickJoin {
        var join = ClickJoin()
        if case .array(let click) = try decoder.value("click") {
            guard click.count == 2 else { throw decoder.failure("bad click") }
            join.click = (decoder.symbol(try decoder.string(click[0])), try decoder.route(click[1]))
        }
        let counts = try decoder.integers("counts", count: 6)
        (join.opens, join.openRetries, join.openConflicts) = (counts[0], counts[1], counts[2])
        (join.bindings, join.bindRetries, join.bindConflicts) = (counts[3], counts[4], counts[5])
        if try decoder.value("click_ts") != .null { join.clickTs = try decoder.instant("click_ts") }
        if try decoder.value("bind_ts") != .null { join.bindTs = try decoder.instant("bind_ts") }
        return join
    }
}
