import Testing
@testable import GroveReport

struct TimestampTests {
    @Test("valid RFC 3339 forms are accepted", arguments: [
        "2026-03-01T10:00:00Z", "2026-03-01t10:00:00z", "2026-03-01T10:00:00.1Z",
        "2026-03-01T10:00:00.123456789Z", "2026-03-01T10:00:00+23:59", "2026-03-01T10:00:00-00:00",
        "2024-02-29T00:00:00Z", "2000-02-29T23:59:59Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
    ])
    func accepts(_ text: String) {
        #expect(TimestampParser.parse(text) != nil)
    }

    @Test("invalid forms are rejected", arguments: [
        "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-04-31T00:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T10:60:00Z", "2026-03-01T10:00:60Z",
        "2026-03-01T10:00:00", "2026-03-01 10:00:00Z", "2026-03-01T10:00:00.Z", "2026-03-01T10:00:00.1234567890Z",
        "2026-03-01T10:00:00+24:00", "2026-03-01T10:00:00+05:60", "2026-03-01T10:00:00+0500",
        "0000-01-01T00:00:00Z", " 2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z ", "２026-03-01T10:00:00Z",
        "26-03-01T10:00:00Z", "2026-3-01T10:00:00Z",
    ])
    func rejects(_ text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }

    @Test func offsetsAreAppliedToTheInstant() {
        #expect(TimestampParser.parse("2026-03-01T12:00:00+02:00") == TimestampParser.parse("2026-03-01T10:00:00Z"))
        #expect(TimestampParser.parse("2026-03-01T00:30:00-01:00") == TimestampParser.parse("2026-03-01T01:30:00Z"))
    }

    @Test func epochAndFractionsAreExact() {
        #expect(TimestampParser.parse("1970-01-01T00:00:00Z") == Instant(seconds: 0, nanoseconds: 0))
        #expect(TimestampParser.parse("1970-01-01T00:00:01.5Z") == Instant(seconds: 1, nanoseconds: 500_000_000))
        #expect(TimestampParser.parse("1969-12-31T23:59:59.000000001Z") == Instant(seconds: -1, nanoseconds: 1))
        #expect(TimestampParser.parse("2000-03-01T00:00:00Z") == Instant(seconds: 951_868_800, nanoseconds: 0))
    }

    @Test func nanosecondPrecisionOrders() {
        let earlier = TimestampParser.parse("2026-03-01T10:00:00.000000001Z")!
        let later = TimestampParser.parse("2026-03-01T10:00:00.000000002Z")!
        #expect(earlier < later)
        #expect(TimestampParser.parse("2026-03-01T10:00:00.1Z") == TimestampParser.parse("2026-03-01T10:00:00.100000000Z"))
    }
}
