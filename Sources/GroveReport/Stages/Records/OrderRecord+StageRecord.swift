/// `order`, keyed by orderId: the earliest line.
extension OrderRecord: KeyedStageRecord {
    static let kind = "order"
    static var store: WritableKeyPath<PartialState, SymbolKeyedRecords<OrderRecord>> { \.exposure.orders }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("ts", encoder.instant(earliest.ts)),
            JSONOutput.Member("amount", .integer(Int(earliest.amountMinor))),
            JSONOutput.Member("preview", .bool(earliest.isPreview)),
            JSONOutput.Member("denied", .bool(earliest.subject.consent == .denied)),
            JSONOutput.Member("installId", encoder.text(earliest.subject.installId)),
            JSONOutput.Member("customerId", encoder.text(earliest.subject.customerId)),
        ]
    }

    static func decoded(key: Symbol, _ decoder: inout RecordDecoder) throws(RecordError) -> OrderRecord {
        let subject = GronaSubject(
            installId: try decoder.symbol(member: "installId"),
            customerId: try decoder.optionalSymbol(decoder.value["customerId"] ?? .null),
            consent: try decoder.bool("denied") ? .denied : .unknown)
        let order = Order(
            ts: try decoder.instant("ts"), subject: subject, orderId: key,
            amountMinor: Int64(try decoder.value(number: "amount")), isPreview: try decoder.bool("preview"))
        return OrderRecord(earliest: order)
    }
}
