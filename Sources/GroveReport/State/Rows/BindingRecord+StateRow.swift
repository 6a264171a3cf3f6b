/// A binding row: keyed by clickId; the winning line's ts, then the line count of each sealed
/// email, the winner's email given by its place among them.
extension BindingRecord: StateRowRecord {
    static let rowKind: UInt8 = 2

    static func writeKey(_ key: Symbol, to writer: inout StateRowWriter) throws(StateError) { writer.text(key) }

    static func readKey(from reader: inout StateRowReader) throws(StateError) -> Symbol { try reader.requiredText() }

    func write(key _: Symbol, to writer: inout StateRowWriter) throws(StateError) {
        writer.instant(winner.ts)
        writer.count(emails.entries.enumerated().first { $0.element.value == winner.normalizedEmail }?.offset ?? 0)
        writer.count(emails.entries.count)
        for entry in emails.entries {
            writer.text(entry.value)
            writer.count(entry.lines)
        }
    }

    static func read(key: Symbol, from reader: inout StateRowReader) throws(StateError) -> BindingRecord {
        let ts = try reader.instant()
        let winnerPlace = try reader.count()
        var entries: [ValueCounts<Symbol>.Entry] = []
        for _ in 0..<(try reader.count()) {
            entries.append(.init(value: try reader.requiredText(), lines: try reader.count()))
        }
        guard winnerPlace < entries.count else { throw reader.damaged("a binding's winner is not among its emails") }
        var record = BindingRecord(ClickBind(ts: ts, clickId: key, normalizedEmail: entries[winnerPlace].value))
        record.emails = ValueCounts(entries: entries)
        return record
    }
}
