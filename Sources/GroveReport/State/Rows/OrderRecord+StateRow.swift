/// An order row: keyed by orderId; the earliest line's ts, amount, preview and consent-denied
/// flags, installId and customerId.
extension OrderRecord: StateRowRecord {
    static let rowKind: UInt8 = 5

    static func writeKey(_ key: Symbol, to writer: inout StateRowWriter) throws(StateError) { writer.text(key) }

    static func readKey(from reader: inout StateRowReader) throws(StateError) -> Symbol { try reader.requiredText() }

    func write(key _: Symbol, to writer: inout StateRowWriter) throws(StateError) {
        writer.instant(earliest.ts)
        writer.count(Int(earliest.amountMinor))
        writer.flag(earliest.isPreview)
        writer.flag(earliest.subject.consent == .denied)
        writer.text(earliest.subject.installId)
        writer.text(earliest.subject.customerId)
    }

    static func read(key: Symbol, from reader: inout StateRowReader) throws(StateError) -> OrderRecord {
        let ts = try reader.instant()
        let amount = try reader.count()
        let isPreview = try reader.flag()
        let consent: Consent = try reader.flag() ? .denied : .unknown
        let subject = GronaSubject(installId: try reader.requiredText(), customerId: try reader.text(), consent: consent)
        return OrderRecord(earliest: Order(ts: ts, subject: subject, orderId: key, amountMinor: Int64(amount), isPreview: isPreview))
    }
}
