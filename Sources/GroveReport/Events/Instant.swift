/// A point in time at nanosecond precision, as seconds and nanoseconds since 1970-01-01T00:00:00Z.
///
/// Years 0001–9999 at nanosecond precision overflow a single `Int64` of nanoseconds, hence two fields.
struct Instant: Comparable, Hashable, Sendable {
    var seconds: Int64
    var nanoseconds: Int32

    init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}
