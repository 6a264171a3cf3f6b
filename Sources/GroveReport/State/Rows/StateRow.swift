/// A per-key record kind that the state keeps as binary rows (schema 3): its key and value
/// written and read without a text codec. The key starts with the kind's byte.
protocol StateRowRecord: KeyedStageRecord {
    static var rowKind: UInt8 { get }
    /// Writes the key's parts after the kind byte.
    static func writeKey(_ key: Index.Key, to writer: inout StateRowWriter) throws(StateError)
    static func readKey(from reader: inout StateRowReader) throws(StateError) -> Index.Key
    /// Writes the value (`key` spares what the value would repeat of it).
    func write(key: Index.Key, to writer: inout StateRowWriter) throws(StateError)
    static func read(key: Index.Key, from reader: inout StateRowReader) throws(StateError) -> Self
}

/// The state's per-key records as rows: every kind, how a partial state becomes rows and rows
/// merge back into one.
enum StateRows {
    /// One stored row: the key (kind byte first) and the value.
    struct Row {
        var key: [UInt8]
        var value: [UInt8]
    }

    static let kinds: [any StateRowRecord.Type] = [
        ClickRecord.self, BindingRecord.self, OpenRecord.self, InstallRecord.self, OrderRecord.self,
    ]

    private static let byKind: [UInt8: any StateRowRecord.Type] = Dictionary(uniqueKeysWithValues: kinds.map { ($0.rowKind, $0) })

    /// The kind's name as stage records spell it, for the `kind` column people query.
    static func kindName(of key: [UInt8]) -> String {
        key.first.flatMap { byKind[$0]?.kind } ?? "unknown"
    }

    /// A row for every per-key record of `state`.
    static func rows(of state: PartialState, names: StateNames) throws(StateError) -> [Row] {
        var writer = StateRowWriter(symbols: state.symbols, names: names)
        var rows: [Row] = []
        for kind in kinds { try append(kind, of: state, to: &rows, writer: &writer) }
        return rows
    }

    private static func append<R: StateRowRecord>(
        _: R.Type, of state: PartialState, to rows: inout [Row], writer: inout StateRowWriter
    ) throws(StateError) {
        let records = state[keyPath: R.store]
        for (key, record) in zip(records.keys, records.records) {
            rows.append(Row(key: try self.key(R.self, key, writer: &writer), value: try value(record, key: key, writer: &writer)))
        }
    }

    /// The row key of a record of kind `R`.
    static func key<R: StateRowRecord>(_: R.Type, _ key: R.Index.Key, writer: inout StateRowWriter) throws(StateError) -> [UInt8] {
        writer.reset()
        writer.byte(R.rowKind)
        try R.writeKey(key, to: &writer)
        return writer.bytes
    }

    private static func value<R: StateRowRecord>(_ record: R, key: R.Index.Key, writer: inout StateRowWriter) throws(StateError) -> [UInt8] {
        writer.reset()
        try record.write(key: key, to: &writer)
        return writer.bytes
    }

    /// Merges stored rows into `state`: a record is the merge of its rows.
    static func read(_ rows: some Sequence<Row>, into state: inout PartialState, names: StateNames) throws(StateError) {
        var reader = StateRowReader(symbols: take(&state.symbols, SymbolTable()), names: names)
        defer { state.symbols = take(&reader.symbols, SymbolTable()) }
        for row in rows {
            reader.load(row.key)
            guard let kind = byKind[try reader.byte()] else { throw reader.damaged("an unknown record kind") }
            try read(kind, row: row, reader: &reader, into: &state)
        }
    }

    private static func read<R: StateRowRecord>(
        _: R.Type, row: Row, reader: inout StateRowReader, into state: inout PartialState
    ) throws(StateError) {
        let key = try R.readKey(from: &reader)
        guard reader.isAtEnd else { throw reader.damaged("a key runs on") }
        reader.load(row.value)
        let record = try R.read(key: key, from: &reader)
        guard reader.isAtEnd else { throw reader.damaged("a value runs on") }
        let symbols = reader.symbols
        state[keyPath: R.store].upsert(key, { record }, { $0.merge(record, symbols: symbols) })
    }
}
