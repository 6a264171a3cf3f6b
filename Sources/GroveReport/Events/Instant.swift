/// A point in time at nanosecond precision, as seconds and nanoseconds since 1970-01-01T00:00:00Z.
///
/// Years 0001–9999 at nanosecond precision overflow a single `Int64` of nanoseconds, hence two fields.
public struct Instant: Comparable, Hashable, Sendable {
    public var seconds: Int64
    public var nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}
