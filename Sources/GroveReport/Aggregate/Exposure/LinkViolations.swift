/// The four preview-link checks of the audit (docs/AUDIT.md, Violations): what an SDK must never do with a
/// link. One link may break several.
struct LinkViolations: Sendable, Equatable {
    /// Paired or cleared on a malformed or foreign link.
    var invalidLinkAccepted = 0
    /// Cleared on a pairing link, or paired on a clearing one.
    var wrongLinkOutcome = 0
    /// Paired while consent was denied (pairing sends the install id).
    var pairedWhileDenied = 0
    /// Paired with a pin that ends more than 24 hours after the link's `ts`.
    var pinTooLong = 0

    /// The longest pin Grona may issue: 24 hours, to the nanosecond.
    static let maximumPinSeconds: Int64 = 86_400

    init() {}

    /// The violations of one link.
    init(_ link: PreviewLink) {
        let accepted = link.outcome == .paired || link.outcome == .cleared
        if accepted && (link.kind == .malformed || link.kind == .foreign) { invalidLinkAccepted = 1 }
        if (link.kind == .pair && link.outcome == .cleared) || (link.kind == .clear && link.outcome == .paired) {
            wrongLinkOutcome = 1
        }
        guard link.outcome == .paired else { return }
        if link.subject.consent == .denied { pairedWhileDenied = 1 }
        if let expiry = link.pinExpiresAt, Self.isTooLong(from: link.ts, to: expiry) { pinTooLong = 1 }
    }

    /// Whether a pin from `start` until `expiry` lasts more than 86,400 s (exactly 86,400 s is fine).
    static func isTooLong(from start: Instant, to expiry: Instant) -> Bool {
        Instant(seconds: start.seconds + maximumPinSeconds, nanoseconds: start.nanoseconds) < expiry
    }

    var total: Int { invalidLinkAccepted + wrongLinkOutcome + pairedWhileDenied + pinTooLong }

    /// In report order.
    var counts: [Int] { [invalidLinkAccepted, wrongLinkOutcome, pairedWhileDenied, pinTooLong] }

    init(counts: [Int]) {
        invalidLinkAccepted = counts[0]
        wrongLinkOutcome = counts[1]
        pairedWhileDenied = counts[2]
        pinTooLong = counts[3]
    }

    mutating func add(_ other: LinkViolations) {
        invalidLinkAccepted += other.invalidLinkAccepted
        wrongLinkOutcome += other.wrongLinkOutcome
        pairedWhileDenied += other.pairedWhileDenied
        pinTooLong += other.pinTooLong
    }
}
