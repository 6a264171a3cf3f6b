/// Counts by UTC day (SPEC section 10.3), summed like every other count: merged by adding, a
/// day that sums to nothing dropped, so a state's sums of before/after differences keep no
/// empty day. Three counts a day: (units, converted units, 0) for a variant, (clicks, opens,
/// attributed) for a campaign.
struct DailyTallies: Sendable, Equatable {
    /// By day number (`Instant.day`).
    private(set) var byDay: [Int: SIMD3<Int>] = [:]

    var isEmpty: Bool { byDay.isEmpty }

    /// Adds in place: one hash and one probe of `byDay` (a second only for a day that sums to
    /// nothing); a read and then a write cost two of each, about 350 instructions a call, and
    /// the join stages call it for every click and unit.
    mutating func add(day: Int, _ counts: SIMD3<Int>) {
        let emptied = Self.add(counts, to: &byDay[day, default: SIMD3()])
        if emptied { byDay[day] = nil }
    }

    /// Adds `counts` to `sum`; whether the sum is now nothing.
    private static func add(_ counts: SIMD3<Int>, to sum: inout SIMD3<Int>) -> Bool {
        sum &+= counts
        return sum == SIMD3()
    }

    mutating func add(_ other: DailyTallies) {
        for (day, counts) in other.byDay { add(day: day, counts) }
    }

    func scaled(by sign: Int) -> DailyTallies {
        var scaled = DailyTallies()
        scaled.byDay = byDay.mapValues { $0 &* sign }
        return scaled
    }

    /// The days in order with their counts.
    var sorted: [(day: Int, counts: SIMD3<Int>)] {
        byDay.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// A day's number in stage records: days since 0000-01-01, never negative for an instant
    /// of the logs (an offset can carry 0001-01-01 back to 0000-12-31).
    static let recordOffset = 719_528
}

extension Instant {
    /// The day number (days since 1970-01-01, UTC) of this instant.
    var day: Int {
        let seconds = Int(self.seconds)
        return seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
    }
}

/// `YYYY-MM-DD` of a day number, proleptic Gregorian; years 0000 and 10000 written as such.
enum DayText {
    static func of(_ day: Int) -> String {
        let (year, month, dayOfMonth) = CivilDate.from(daysSinceEpoch: day)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(dayOfMonth, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
