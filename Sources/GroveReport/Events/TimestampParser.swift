/// Parses RFC 3339 timestamps (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`) into instants.
///
/// Strict by design: ASCII digits only, `T`/`Z` in either case, 1–9 fraction digits, a real
/// proleptic-Gregorian date in years 0001–9999, seconds 00–59 (a leap second is rejected),
/// offsets up to ±23:59 with `-00:00` allowed.
enum TimestampParser {
    /// The instant the bytes denote, or nil when they are not such a timestamp.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Instant? {
        let count = text.count
        guard count >= 20 else { return nil }
        guard let year = digits(text, 0, 4), text[4] == UInt8(ascii: "-"),
              let month = digits(text, 5, 2), text[7] == UInt8(ascii: "-"),
              let day = digits(text, 8, 2), text[10] | 0x20 == UInt8(ascii: "t"),
              let hour = digits(text, 11, 2), text[13] == UInt8(ascii: ":"),
              let minute = digits(text, 14, 2), text[16] == UInt8(ascii: ":"),
              let second = digits(text, 17, 2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var index = 19
        var nanoseconds = 0
        if text[index] == UInt8(ascii: ".") {
            index += 1
            var fractionDigits = 0
            while index < count, let digit = digitValue(text[index]) {
                guard fractionDigits < 9 else { return nil }
                nanoseconds = nanoseconds * 10 + digit
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else { return nil }
            for _ in fractionDigits..<9 { nanoseconds *= 10 }
        }

        guard index < count else { return nil }
        var offsetSeconds = 0
        if text[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else {
            let sign = text[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), count - index == 6,
                  let offsetHour = digits(text, index + 1, 2), text[index + 3] == UInt8(ascii: ":"),
                  let offsetMinute = digits(text, index + 4, 2),
                  offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
            index += 6
        }
        guard index == count else { return nil }

        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    /// Convenience for tests and configuration: parses the UTF-8 of a string.
    static func parse(_ text: String) -> Instant? {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    private static func digits(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        guard start + length <= text.count else { return nil }
        var value = 0
        var invalid: UInt8 = 0
        for index in start..<(start + length) {
            let digit = text[index] &- 0x30
            invalid |= digit > 9 ? 1 : 0
            value = value &* 10 &+ Int(digit)
        }
        return invalid == 0 ? value : nil
    }

    private static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
