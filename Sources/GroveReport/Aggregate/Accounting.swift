/// The per-line accounting of docs/EVENTS.md and the byte and file counters of docs/OUTPUTS.md.
///
/// A mergeable partial: counts add up, input errors are kept sorted, so merging partials in any
/// order gives the same totals.
public struct Accounting: Sendable, Equatable {
    var accepted = [Int](repeating: 0, count: EventType.allCases.count)
    var ignored = [Int](repeating: 0, count: IgnoreReason.allCases.count)
    var rejected: [RejectReason: Int] = [:]
    public var inputErrors: [InputError] = []
    var files = 0
    var bytes = ByteCounts()

    init() {}

    /// Every line read: the sum of the three buckets, by construction.
    public var lines: Int { acceptedTotal + ignored.reduce(0, +) + rejectedTotal }

    var acceptedTotal: Int { accepted.reduce(0, +) }

    public var rejectedTotal: Int { rejected.values.reduce(0, +) }

    func accepted(_ type: EventType) -> Int { accepted[type.rawValue] }

    func ignored(_ reason: IgnoreReason) -> Int { ignored[reason.rawValue] }

    mutating func count(_ outcome: LineOutcome) {
        switch outcome {
        case .accepted(let event): accepted[event.type.rawValue] += 1
        case .ignored(let reason): ignored[reason.rawValue] += 1
        case .rejected(let reason): rejected[reason, default: 0] += 1
        }
    }

    mutating func countRejection(_ reason: RejectReason) {
        rejected[reason, default: 0] += 1
    }

    mutating func merge(_ other: Accounting) {
        for index in accepted.indices { accepted[index] += other.accepted[index] }
        for index in ignored.indices { ignored[index] += other.ignored[index] }
        rejected.merge(other.rejected, uniquingKeysWith: +)
        inputErrors = (inputErrors + other.inputErrors).sorted(by: InputError.precedes)
        files += other.files
        bytes.read += other.bytes.read
        bytes.decompressed += other.bytes.decompressed
    }
}

extension InputError {
    /// Report order: by file name byte-wise, then offset, then message.
    static func precedes(_ lhs: InputError, _ rhs: InputError) -> Bool {
        let left = (ByteString(lhs.file), lhs.offset, ByteString(lhs.error))
        let right = (ByteString(rhs.file), rhs.offset, ByteString(rhs.error))
        return left < right
    }
}
