/// `input_error`, keyed by file, offset and error: `n` copies of one input error.
extension InputError: StageRecord {
    static let kind = "input_error"
    static let keyLength = 3

    static func encodeAll(_ state: PartialState, to encoder: inout RecordEncoder) {
        for error in state.accounting.inputErrors {
            encoder.emit(kind, [.text(error.file), .text(String(error.offset)), .text(error.error)], [
                JSONOutput.Member("n", .integer(1)),
            ])
        }
    }

    static func decode(from decoder: inout RecordDecoder) throws(RecordError) {
        let key = decoder.key
        guard let offset = Int(key[1]), (0...RecordLimits.maximumValue).contains(offset) else { throw decoder.failure("bad offset") }
        let error = InputError(file: key[0], error: key[2], offset: offset)
        let count = try decoder.integer("n")
        try decoder.limits.addInputErrors(count, line: decoder.lineNumber)
        var accounting = Accounting()
        accounting.inputErrors = Array(repeating: error, count: count)
        decoder.state.accounting.merge(accounting)
    }
}
