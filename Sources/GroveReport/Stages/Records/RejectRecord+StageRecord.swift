/// `reject`, keyed by file, input index and line: one rejected line.
extension RejectRecord: StageRecord {
    static let kind = "reject"
    static let keyLength = 3

    var stageKey: [JSONOutput] { [.text(file), .text(String(inputIndex)), .text(String(line))] }

    var encoded: [JSONOutput.Member] {
        var members = [
            JSONOutput.Member("offset", .integer(offset)),
            JSONOutput.Member("reason", .string(reason.text)),
        ]
        if let raw { members.append(JSONOutput.Member("raw", .string(ByteString(raw)))) }
        return members
    }

    static func encodeAll(_ state: PartialState, to encoder: inout RecordEncoder) {
        for record in state.rejects { encoder.emit(kind, record.stageKey, record.encoded) }
    }

    static func decode(from decoder: inout RecordDecoder) throws(RecordError) {
        let key = decoder.key
        guard let index = Int(key[1]), index >= 0, let line = Int(key[2]), (1...RecordLimits.maximumValue).contains(line),
              let reason = RejectReason(text: ByteString(try decoder.string("reason")))
        else { throw decoder.failure("bad reject") }
        let raw = try decoder.optionalString("raw").map { Array($0.utf8) }
        decoder.state.rejects.append(RejectRecord(
            file: key[0], line: line, offset: try decoder.value(number: "offset"), reason: reason, raw: raw, inputIndex: index))
    }
}
