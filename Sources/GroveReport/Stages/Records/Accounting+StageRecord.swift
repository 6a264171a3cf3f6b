/// `accounting`: the line accounting, files and bytes of what was read (input errors are
/// `input_error` records).
extension Accounting: StageRecord {
    static let kind = "accounting"
    static let keyLength = 0

    static func encodeAll(_ state: PartialState, to encoder: inout RecordEncoder) {
        let accounting = state.accounting
        encoder.emit(kind, [], [
            JSONOutput.Member("accepted", encoder.counts(accounting.accepted)),
            JSONOutput.Member("ignored", encoder.counts(accounting.ignored)),
            JSONOutput.Member("rejected", .object(accounting.rejected.map { JSONOutput.Member(key: $0.key.text, .integer($0.value)) }
                .sorted { $0.key < $1.key })),
            JSONOutput.Member("files", .integer(accounting.files)),
            JSONOutput.Member("bytes_read", .integer(accounting.bytes.read)),
            JSONOutput.Member("bytes_decompressed", .integer(accounting.bytes.decompressed)),
        ])
    }

    static func decode(from decoder: inout RecordDecoder) throws(RecordError) {
        var accounting = Accounting()
        accounting.accepted = try decoder.integers("accepted", count: EventType.allCases.count)
        accounting.ignored = try decoder.integers("ignored", count: IgnoreReason.allCases.count)
        for (reasonText, count) in try decoder.object("rejected") {
            guard let reason = RejectReason(text: ByteString(reasonText)) else {
                throw decoder.failure("unknown reject reason \(reasonText)")
            }
            accounting.rejected[reason] = try decoder.integer(count)
        }
        accounting.files = try decoder.integer("files")
        accounting.bytes.read = try decoder.integer("bytes_read")
        accounting.bytes.decompressed = try decoder.integer("bytes_decompressed")
        decoder.state.accounting.merge(accounting)
    }
}
