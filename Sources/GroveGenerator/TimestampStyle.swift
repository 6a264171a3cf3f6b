import GroveReport

/// A point in time as nanoseconds since 1970-01-01T00:00:00Z.
typealias EpochNanoseconds = Int64

/// How one line writes its `ts`: real exports mix UTC and local offsets, upper- and lower-case
/// `T`/`Z` and fractions of 1 to 9 digits, and the reader must compare them all as instants.
struct TimestampStyle {
    /// The zone designator written after the time.
    enum Zone {
        case utc(lowercase: Bool)
        /// A numeric offset; the written wall-clock time is shifted by it.
        case offset(minutes: Int)
        /// `-00:00`: UTC with an unknown local offset (RFC 3339 §4.3).
        case unknownLocalOffset
    }

    var zone: Zone
    /// 0 for no fraction; otherwise the nanoseconds truncated to this many digits.
    var fractionDigits: Int
    var lowercaseT: Bool

    private static let zones: [Zone] = [
        .utc(lowercase: false), .utc(lowercase: true), .offset(minutes: 120), .offset(minutes: 60),
        .offset(minutes: -300), .offset(minutes: 330), .unknownLocalOffset,
    ]
    private static let zoneChoice = WeightedChoice([72, 4, 10, 5, 5, 2, 2])
    private static let fractionChoice = WeightedChoice([35, 40, 12, 5, 8])

    static func random(using rng: inout SeededRandom) -> TimestampStyle {
        let zone = zones[zoneChoice.pick(using: &rng)]
        let fractionDigits: Int
        switch fractionChoice.pick(using: &rng) {
        case 0: fractionDigits = 0
        case 1: fractionDigits = 3
        case 2: fractionDigits = 6
        case 3: fractionDigits = 9
        default: fractionDigits = rng.inRange(1...9)
        }
        return TimestampStyle(zone: zone, fractionDigits: fractionDigits, lowercaseT: rng.chance(0.02))
    }

    /// Writes `instant` as `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, without quotes.
    func append(_ instant: EpochNanoseconds, to line: inout JSONLineBuilder) {
        var offsetMinutes = 0
        if case .offset(let minutes) = zone {
            offsetMinutes = minutes
        }
        let local = instant + Int64(offsetMinutes) * 60_000_000_000
        let nanosecondsPerDay: Int64 = 86_400_000_000_000
        let days = local >= 0 ? local / nanosecondsPerDay : (local + 1) / nanosecondsPerDay - 1
        let nanosOfDay = local - days * nanosecondsPerDay
        let (year, month, day) = CivilDate.from(daysSinceEpoch: Int(days))
        let secondOfDay = Int(nanosOfDay / 1_000_000_000)

        line.appendPadded(year, width: 4)
        line.append("-")
        line.appendPadded(month, width: 2)
        line.append("-")
        line.appendPadded(day, width: 2)
        line.append(lowercaseT ? "t" : "T")
        line.appendPadded(secondOfDay / 3600, width: 2)
        line.append(":")
        line.appendPadded(secondOfDay / 60 % 60, width: 2)
        line.append(":")
        line.appendPadded(secondOfDay % 60, width: 2)
        if fractionDigits > 0 {
            var fraction = Int(nanosOfDay % 1_000_000_000)
            for _ in fractionDigits..<9 {
                fraction /= 10
            }
            line.append(".")
            line.appendPadded(fraction, width: fractionDigits)
        }
        switch zone {
        case .utc(let lowercase):
            line.append(lowercase ? "z" : "Z")
        case .offset(let minutes):
            line.append(minutes < 0 ? "-" : "+")
            line.appendPadded(abs(minutes) / 60, width: 2)
            line.append(":")
            line.appendPadded(abs(minutes) % 60, width: 2)
        case .unknownLocalOffset:
            line.append("-00:00")
        }
    }
}
