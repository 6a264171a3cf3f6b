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

    /// The kinds in the two parts a night encodes apart, on two threads (`rows(of:names:digest:)`),
    /// split so that each takes about half: on a 200k-event night clicks and bindings took 27 ms,
    /// opens, install records and orders 29 (attribution against exposure had been 40 against 16).
    enum Part: Int, CaseIterable {
        case clicksAndBindings
        case opensAndExposure

        var kinds: [any StateRowRecord.Type] {
            switch self {
            case .clicksAndBindings: [ClickRecord.self, BindingRecord.self]
            case .opensAndExposure: [OpenRecord.self, InstallRecord.self, OrderRecord.self]
            }
        }
    }

    static let kinds: [any StateRowRecord.Type] = Part.allCases.flatMap(\.kinds)

    private static let byKind: [UInt8: any StateRowRecord.Type] = Dictionary(uniqueKeysWithValues: kinds.map { ($0.rowKind, $0) })

    /// The kind's name as stage records spell it, for the `kind` column people query.
    static func kindName(of key: [UInt8]) -> String {
        key.first.flatMap { byKind[$0]?.kind } ?? "unknown"
    }

    /// A row for every per-key record of `state`, with its key's digest: a batch for each part
    /// (`Part`), in its order. When every name the rows write is one the state holds (a night
    /// after the first, mostly), the parts are encoded on two threads; a part that meets a new
    /// name is encoded again after the one before it, so new names are numbered in one order
    /// whatever the threads did.
    static func rows(of state: PartialState, names: StateNames, digest: StateKeyDigest) throws(StateError) -> [StateRowBatch] {
        var parts: [Encoded?] = [nil, nil]
        if names.isComplete, recordCount(of: state) >= parallelRecords {
            var first: Result<Encoded?, StateError> = .success(nil)
            var second: Result<Encoded?, StateError> = .success(nil)
            Parallel.both {
                first = Result { () throws(StateError) in try rows(of: state, part: .clicksAndBindings, names: names, digest: digest, newNames: false) }
            } and: {
                second = Result { () throws(StateError) in try rows(of: state, part: .opensAndExposure, names: names, digest: digest, newNames: false) }
            }
            parts = [try first.get(), try second.get()]
        }
        var batches: [StateRowBatch] = []
        for part in Part.allCases {
            if let encoded = parts[part.rawValue], !encoded.metNewName {
                batches.append(encoded.batch)
            } else {
                batches.append(try rows(of: state, part: part, names: names, digest: digest, newNames: true).batch)
            }
        }
        return batches
    }

    /// Records from which a state's parts are encoded on two threads: below, handing a part to
    /// another thread costs more than it saves (compaction encodes one record at a time).
    private static let parallelRecords = 1_024

    private static func recordCount(of state: PartialState) -> Int {
        kinds.reduce(0) { $0 + recordCount(of: $1, in: state) }
    }

    private static func recordCount<K: StateRowRecord>(of _: K.Type, in state: PartialState) -> Int {
        state[keyPath: K.store].keys.count
    }

    /// The rows of one part; without `newNames`, whether a row named a text the state has no
    /// number for (the batch is then cut there).
    private typealias Encoded = (batch: StateRowBatch, metNewName: Bool)

    private static func rows(
        of state: PartialState, part: Part, names: StateNames, digest: StateKeyDigest, newNames: Bool
    ) throws(StateError) -> Encoded {
        var writer = StateRowWriter(symbols: state.symbols, names: names, numbersNewNames: newNames)
        var batch = StateRowBatch()
        // Kind by kind, named rather than looped over `part.kinds`, so each is specialized.
        switch part {
        case .clicksAndBindings:
            try append(ClickRecord.self, of: state, to: &batch, writer: &writer, digest: digest)
            try append(BindingRecord.self, of: state, to: &batch, writer: &writer, digest: digest)
        case .opensAndExposure:
            try append(OpenRecord.self, of: state, to: &batch, writer: &writer, digest: digest)
            try append(InstallRecord.self, of: state, to: &batch, writer: &writer, digest: digest)
            try append(OrderRecord.self, of: state, to: &batch, writer: &writer, digest: digest)
        }
        return (batch, writer.metNewName)
    }

    private static func append<R: StateRowRecord>(
        _: R.Type, of state: PartialState, to batch: inout StateRowBatch, writer: inout StateRowWriter, digest: StateKeyDigest
    ) throws(StateError) {
        let records = state[keyPath: R.store]
        for index in records.keys.indices where !writer.metNewName {
            let key = records.keys[index]
            let record = records.records[index]
            try writeKey(R.self, key, to: &writer)
            let keyCount = writer.bytes.count
            try record.write(key: key, to: &writer)
            batch.append(writer.bytes, keyCount: keyCount, digest: digest)
        }
    }

    /// Starts a row of kind `R` in `writer` with its key: the kind's byte, then the key's parts.
    private static func writeKey<R: StateRowRecord>(_: R.Type, _ key: R.Index.Key, to writer: inout StateRowWriter) throws(StateError) {
        writer.reset()
        writer.byte(R.rowKind)
        try R.writeKey(key, to: &writer)
    }

    /// The digests of the click row and the binding row of a click id: a binding is keyed by
    /// its click's id, written as the click's key is, so one key text serves both.
    static func clickAndBindingDigests(
        _ clickID: Symbol, writer: inout StateRowWriter, digest: StateKeyDigest
    ) throws(StateError) -> (click: Int64, binding: Int64) {
        try writeKey(ClickRecord.self, clickID, to: &writer)
        let click = digest.of(writer.bytes)
        writer.replaceKind(with: BindingRecord.rowKind)
        return (click, digest.of(writer.bytes))
    }

    /// The batch of `rows(of: state)` that holds the rows of `R`'s records, and where they
    /// start in it: the kinds of a part come in its order, each in its store's order.
    static func place<R: StateRowRecord>(of _: R.Type, in state: PartialState) -> (batch: Int, first: Int) {
        for part in Part.allCases {
            var start = 0
            for kind in part.kinds {
                if ObjectIdentifier(kind) == ObjectIdentifier(R.self) { return (part.rawValue, start) }
                start += recordCount(of: kind, in: state)
            }
        }
        preconditionFailure("\(R.self) is not a state row kind")
    }

    /// Merges stored rows into `state`: a record is the merge of its rows.
    /// (`format`: rows of an older schema, for the migrations.)
    static func read(
        _ rows: some Sequence<Row>, into state: inout PartialState, names: StateNames, format: StateRowReader.Format = .current
    ) throws(StateError) {
        var reader = StateRowReader(symbols: take(&state.symbols, SymbolTable()), names: names, format: format)
        defer { state.symbols = take(&reader.symbols, SymbolTable()) }
        for row in rows {
            reader.load(row.key)
            // Kind by kind, named rather than looked up, so each is specialized.
            switch try reader.byte() {
            case ClickRecord.rowKind: try read(ClickRecord.self, row: row, reader: &reader, into: &state)
            case BindingRecord.rowKind: try read(BindingRecord.self, row: row, reader: &reader, into: &state)
            case OpenRecord.rowKind: try read(OpenRecord.self, row: row, reader: &reader, into: &state)
            case InstallRecord.rowKind: try read(InstallRecord.self, row: row, reader: &reader, into: &state)
            case OrderRecord.rowKind: try read(OrderRecord.self, row: row, reader: &reader, into: &state)
            default: throw reader.damaged("an unknown record kind")
            }
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
