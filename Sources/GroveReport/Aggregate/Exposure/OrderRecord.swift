/// What exposure keeps of one order (all lines with one `orderId`): its earliest line.
///
/// Every accepted order line takes part in deduplication, preview and consent-denied ones too;
/// the order is used only when its earliest line is neither.
struct OrderRecord: MergeableRecord {
    var earliest: Order

    var isUsable: Bool { !earliest.isPreview && earliest.subject.consent != .denied }

    mutating func merge(_ other: OrderRecord, symbols: SymbolTable) {
        if Self.precedes(other.earliest, earliest, symbols) { earliest = other.earliest }
    }

    func translated(_ translation: SymbolTranslation) -> OrderRecord {
        var copy = self
        copy.earliest.orderId = translation[earliest.orderId]
        copy.earliest.subject.installId = translation[earliest.subject.installId]
        copy.earliest.subject.customerId = translation[earliest.subject.customerId]
        return copy
    }

    /// Smallest `ts`, ties by `amountMinor`, not-preview first, not-denied first, `installId`,
    /// then `customerId` with absent first.
    static func precedes(_ lhs: Order, _ rhs: Order, _ symbols: SymbolTable) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        if lhs.amountMinor != rhs.amountMinor { return lhs.amountMinor < rhs.amountMinor }
        if lhs.isPreview != rhs.isPreview { return !lhs.isPreview }
        let lhsDenied = lhs.subject.consent == .denied
        let rhsDenied = rhs.subject.consent == .denied
        if lhsDenied != rhsDenied { return !lhsDenied }
        if lhs.subject.installId != rhs.subject.installId {
            return symbols.precedes(lhs.subject.installId, rhs.subject.installId)
        }
        return symbols.precedes(lhs.subject.customerId, rhs.subject.customerId)
    }
}
