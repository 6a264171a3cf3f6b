/// One kind of stage record (docs/SPARK.md, Records): the type names its kind and writes and
/// reads its own KEY and VALUE, so a field is added in its conformance alone.
protocol StageRecord: Sendable {
    /// The KEY's first string.
    static var kind: String { get }
    /// How many KEY strings follow the kind.
    static var keyLength: Int { get }
    /// Writes every record of this kind that `state` holds.
    static func encodeAll(_ state: PartialState, to encoder: inout RecordEncoder)
    /// Reads the decoder's current record, of this kind, into its state.
    static func decode(from decoder: inout RecordDecoder) throws(RecordError)
}

/// A stage record kept by key in a store of the partial state, merged with one of equal key.
protocol KeyedStageRecord: StageRecord, MergeableRecord where Index.Key: StageRecordKey {
    associatedtype Index: RecordIndex
    /// Where a partial state keeps the records of this kind.
    static var store: WritableKeyPath<PartialState, KeyedRecords<Index, Self>> { get }
    /// The VALUE members after `"v"`.
    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member]
    /// The record of `key` from the decoder's current VALUE.
    static func decoded(key: Index.Key, _ decoder: inout RecordDecoder) throws(RecordError) -> Self
}

extension KeyedStageRecord {
    static var keyLength: Int { Index.Key.stageKeyLength }

    static func encodeAll(_ state: PartialState, to encoder: inout RecordEncoder) {
        let records = state[keyPath: store]
        for (key, record) in zip(records.keys, records.records) {
            encoder.emit(kind, key.stageKey(encoder), record.encoded(encoder))
        }
    }

    static func decode(from decoder: inout RecordDecoder) throws(RecordError) {
        let key = try Index.Key(stageKey: decoder.key[...], &decoder)
        let record = try decoded(key: key, &decoder)
        decoder.merge(record, key: key, into: store)
    }
}

/// A key of keyed stage records, written as the KEY strings after the kind.
protocol StageRecordKey {
    static var stageKeyLength: Int { get }
    func stageKey(_ encoder: RecordEncoder) -> [JSONOutput]
    init(stageKey parts: ArraySlice<String>, _ decoder: inout RecordDecoder) throws(RecordError)
}

/// Every record kind, in the order the encoder writes them.
enum StageRecordKinds {
    static let all: [any StageRecord.Type] = [
        Accounting.self, InputError.self, RejectRecord.self,
        ClickRecord.self, OpenRecord.self, BindingRecord.self,
        CampaignCounters.self, InstallRecord.self, OrderRecord.self, AuditTotals.self,
        ClickJoin.self, UnitAssignment.self, UnitConversion.self,
        AttributionCounts.self, VariantCounts.self, CampaignStats.self, AttributionExtras.self,
    ]

    /// The record type of each kind.
    static let byKind: [String: any StageRecord.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.kind, $0) })
}

/// A stage record of which a partial state holds one, merged with every other of its kind.
protocol SingleStageRecord: StageRecord, MergeableRecord {
    /// Where a partial state keeps it.
    static var slot: WritableKeyPath<PartialState, Self> { get }
    /// The VALUE members after `"v"`.
    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member]
    /// The record from the decoder's current VALUE.
    static func decoded(_ decoder: inout RecordDecoder) throws(RecordError) -> Self
}

extension SingleStageRecord {
    static var keyLength: Int { 0 }

    static func encodeAll(_ state: PartialState, to encoder: inout RecordEncoder) {
        encoder.emit(kind, [], state[keyPath: slot].encoded(encoder))
    }

    static func decode(from decoder: inout RecordDecoder) throws(RecordError) {
        decoder.merge(try decoded(&decoder), into: slot)
    }
}
