/// What exposure keeps of one order (all lines with one `orderId`): its earliest line.
///
/// Every accepted order line takes part in deduplication, preview and consent-denied ones too;
/// the order is used only when its earliest line is neither.
struct OrderRecord: MergeableRecord, Sendable, Equatable {
    var earliest: Order

    var isUsable: Bool { !earliest.isPreview && earliest.subject.consent != .denied }

    mutating func merge(_ other: OrderRecord) {
        if Self.precedes(other.earliest, earliest) { earliest = other.earliest }
    }

    /// Smallest `ts`, ties by `amountMinor`, not-preview first, not-denied first, `installId`,
    /// then `customerId` with absent first.
    static func precedes(_ lhs: Order, _ rhs: Order) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        if lhs.amountMinor != rhs.amountMinor { return lhs.amountMinor < rhs.amountMinor }
        if lhs.isPreview != rhs.isPreview { return !lhs.isPreview }
        let lhsDenied = lhs.subject.consent == .denied
        let rhsDenied = rhs.subject.consent == .denied
        if lhsDenied != rhsDenied { return !lhsDenied }
        if lhs.subject.installId != rhs.subject.installId { return lhs.subject.installId < rhs.subject.installId }
        return ByteString?.precedes(lhs.subject.customerId, rhs.subject.customerId)
    }
}
