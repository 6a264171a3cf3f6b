/// A binding row: keyed by clickId; the winning line's ts and sealed email, and the line count
/// of each sealed email.
extension BindingRecord: StateRowRecord {
    static let rowKind: UInt8 = 2

    static func writeKey(_ key: Symbol, to writer: inout StateRowWriter) throws(StateError) { writer.text(key) }

    static func readKey(from reader: inout StateRowReader) throws(StateError) -> Symbol { try reader.requiredText() }

    func write(to writer: inout StateRowWriter) throws(StateError) {
        writer.instant(winner.ts)
        writer.text(winner.normalizedEmail)
        writer.count(emails.entries.count)
        for entry in emails.entries {
            writer.text(entry.value)
            writer.count(entry.lines)
        }
    }

    static func read(key: Symbol, from reader: inout StateRowReader) throws(StateError) -> BindingRecord {
        let winner = ClickBind(ts: try reader.instant(), clickId: key, normalizedEmail: try reader.requiredText())
        var entries: [ValueCounts<Symbol>.Entry] = []
        for _ in 0..<(try reader.count()) {
            entries.append(.init(value: try reader.requiredText(), lines: try reader.count()))
        }
        guard !entries.isEmpty else { throw reader.damaged("a binding needs an email") }
        var record = BindingRecord(winner)
        record.emails = ValueCounts(entries: entries)
        return record
    }
}
