/// Writes a partial state as stage records: one line `KEY<TAB>VALUE` per record, KEY a compact
/// JSON array of strings naming the kind and the record's key, VALUE a compact JSON object with
/// the format version `"v"`. JSON escaping keeps tabs and newlines out of both.
///
/// Each record type writes its own KEY and VALUE (`StageRecord`); the kinds and their keys (the
/// shuffle key of the stage that reads them) are listed in `docs/SPARK.md`.
struct RecordEncoder {
    /// 4: `campaign_counters` gained `previewUnidentifiedCustomer` (states keep reading format 3,
    /// `RecordFormat3`); 3: the kinds of format 2 spelled out (`RecordFormat2`).
    static let formatVersion = 5

    let symbols: SymbolTable
    private(set) var output: [UInt8] = []

    /// Every record of the state.
    static func encode(_ state: PartialState) -> [UInt8] {
        var encoder = RecordEncoder(symbols: state.symbols)
        for type in StageRecordKinds.all { type.encodeAll(state, to: &encoder) }
        return encoder.output
    }

    /// The `reject` record of one rejected line; `partial` streams these as it finds them.
    static func reject(_ record: RejectRecord) -> [UInt8] {
        line(RejectRecord.kind, record.stageKey, record.encoded)
    }

    /// Appends one record.
    mutating func emit(_ kind: String, _ key: [JSONOutput], _ members: [JSONOutput.Member]) {
        output += Self.line(kind, key, members)
    }

    private static func line(_ kind: String, _ key: [JSONOutput], _ members: [JSONOutput.Member]) -> [UInt8] {
        var line = JSONOutput.array([.text(kind)] + key).compact()
        line.append(0x09)
        line += JSONOutput.object([JSONOutput.Member("v", .integer(formatVersion))] + members).compact()
        line.append(0x0A)
        return line
    }

    func text(_ symbol: Symbol) -> JSONOutput { .string(symbols.string(symbol)) }

    func text(_ symbol: Symbol?) -> JSONOutput { symbol.map(text) ?? .null }

    /// `[seconds, nanoseconds]`.
    func instant(_ instant: Instant) -> JSONOutput {
        .array([.integer(Int(instant.seconds)), .integer(Int(instant.nanoseconds))])
    }

    /// Campaign, source, medium, content, term.
    func utm(_ utm: UTMParameters) -> JSONOutput { .array(utm.all.map(text)) }

    func route(_ route: Route) -> JSONOutput { .text(route.word) }

    /// Counts as an array of integers.
    func counts(_ counts: [Int]) -> JSONOutput { .array(counts.map(JSONOutput.integer)) }

    /// `[[day, count…], …]` by day, the day counted from 0000-01-01 and `width` counts a day.
    func days(_ tallies: DailyTallies, width: Int) -> JSONOutput {
        .array(tallies.sorted.map { day, tally in
            self.counts([day + DailyTallies.recordOffset] + (0..<width).map { tally[$0] })
        })
    }

    /// `[variant, firstExposure, control]`.
    func exposure(_ exposure: VariantExposure) -> [JSONOutput] {
        [text(exposure.variant), instant(exposure.firstExposure), .bool(exposure.control)]
    }

    /// `[install|customer, id]`.
    func unit(_ unit: UnitKey) -> [JSONOutput] {
        [.text(unit.kind.word), text(unit.id)]
    }
}
