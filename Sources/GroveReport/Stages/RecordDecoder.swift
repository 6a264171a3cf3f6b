/// Why a stage could not read its input; the message names the line.
public struct RecordError: Error, CustomStringConvertible {
    var line: Int
    var problem: String

    public var description: String { "record on input line \(line): \(problem)" }
}

/// Reads stage records (see `RecordEncoder`) into a partial state, merging records of equal keys;
/// each record type reads its own KEY and VALUE (`StageRecord`).
///
/// Records come from another process, maybe damaged or hostile: every number is checked (counts
/// and values in 0...2^53−1, instants in the years 0001–9999, offsets and line numbers not
/// negative), and the sum of all counts read is kept below 2^62, so no merge of them can
/// overflow; a record that breaks a rule is refused with a `RecordError` instead of a trap.
struct RecordDecoder {
    /// The records read so far.
    var state = PartialState()
    private(set) var lineNumber = 0
    let limits = RecordLimits()
    /// The KEY strings after the kind, of the record being read.
    private(set) var key: [String] = []
    /// The VALUE of the record being read.
    private(set) var value: JSONValue = .null

    /// Reads one record line (without its newline).
    mutating func read(_ line: ArraySlice<UInt8>) throws(RecordError) {
        lineNumber += 1
        guard let tab = line.firstIndex(of: 0x09),
              case .array(let keyValues)? = JSONValue.parse(Array(line[..<tab])),
              let value = JSONValue.parse(Array(line[(tab + 1)...]))
        else { throw failure("not KEY<TAB>VALUE with JSON on both sides") }
        let key = keyValues.compactMap { element -> String? in if case .string(let text) = element { return text } else { return nil } }
        guard key.count == keyValues.count, let kind = key.first else { throw failure("the key must be an array of strings") }
        guard value["v"] == .number(Double(RecordEncoder.formatVersion)) else {
            throw failure("format version \(value["v"].map { "\($0)" } ?? "missing"), expected \(RecordEncoder.formatVersion)")
        }
        guard let type = StageRecordKinds.byKind[kind], type.keyLength == key.count - 1 else {
            throw failure("unknown record kind \(kind) with \(key.count - 1) key parts")
        }
        self.key = Array(key.dropFirst())
        self.value = value
        try type.decode(from: &self)
    }

    func failure(_ problem: String) -> RecordError {
        RecordError(line: lineNumber, problem: problem)
    }

    /// Interns `text` into the state's symbol table.
    mutating func symbol(_ text: String) -> Symbol { state.symbols.intern(Array(text.utf8)) }

    /// Merges a decoded record into the store `store` under `key`.
    mutating func merge<Index, Record>(_ record: Record, key: Index.Key, into store: WritableKeyPath<PartialState, KeyedRecords<Index, Record>>) {
        // Taken after the record's last `symbol(_:)`: a copy alive while interning would copy the table.
        let symbols = state.symbols
        state[keyPath: store].upsert(key, { record }, { $0.merge(record, symbols: symbols) })
    }

    /// Merges a decoded record into the one record of its kind at `slot`.
    mutating func merge<Record: MergeableRecord>(_ record: Record, into slot: WritableKeyPath<PartialState, Record>) {
        let symbols = state.symbols
        state[keyPath: slot].merge(record, symbols: symbols)
    }
}
