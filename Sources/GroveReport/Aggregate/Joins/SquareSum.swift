/// A sum of squared unit revenues (Σr², docs/EXPOSURE.md, Revenue interval), exact in 256 bits.
///
/// A unit's revenue is at most the run's revenue total (under 2^120 for a stage input), so Σr²
/// ≤ (Σr)² stays below 2^240: no real sum wraps. Additions and subtractions wrap modulo 2^256,
/// which keeps a state's sums of before/after differences exact in any order: only the final
/// sum, never negative, is read.
struct SquareSum: Sendable, Equatable, Hashable {
    var high: UInt128 = 0
    var low: UInt128 = 0

    init() {}

    init(high: UInt128, low: UInt128) {
        self.high = high
        self.low = low
    }

    /// r², exactly.
    init(squareOf value: Int128) {
        let magnitude = value.magnitude
        let (high, low) = magnitude.multipliedFullWidth(by: magnitude)
        self.init(high: high, low: low)
    }

    static func += (lhs: inout SquareSum, rhs: SquareSum) {
        let (low, carry) = lhs.low.addingReportingOverflow(rhs.low)
        lhs.high = lhs.high &+ rhs.high &+ (carry ? 1 : 0)
        lhs.low = low
    }

    /// The two's-complement negation modulo 2^256.
    var negated: SquareSum {
        var result = SquareSum(high: ~high, low: ~low)
        result += SquareSum(high: 0, low: 1)
        return result
    }

    /// The sum as a signed 128-bit integer, or nil when it does not fit.
    var int128: Int128? {
        guard high == 0, low <= UInt128(Int128.max) else { return nil }
        return Int128(low)
    }

    /// The decimal digits of the sum (read as unsigned).
    var decimal: String {
        if high == 0 { return String(low) }
        // Long division by 10^19 until the value fits one word.
        let divisor: UInt128 = 10_000_000_000_000_000_000
        var (high, low) = (self.high, self.low)
        var groups: [String] = []
        while high != 0 {
            let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: divisor)
            let (quotientLow, remainder) = divisor.dividingFullWidth((remainderHigh, low))
            groups.append(String(remainder))
            (high, low) = (quotientHigh, quotientLow)
        }
        var text = String(low)
        for group in groups.reversed() { text += String(repeating: "0", count: 19 - group.count) + group }
        return text
    }

    /// Parses decimal digits; nil for anything else or a value of 2^256 or more.
    init?(decimal text: String) {
        guard !text.isEmpty, text.utf8.count <= 78, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = SquareSum()
        for digit in text.utf8 {
            // value · 10 + digit, refusing a carry out of 256 bits.
            let (lowHigh, lowLow) = value.low.multipliedFullWidth(by: 10)
            let (highHigh, highLow) = value.high.multipliedFullWidth(by: 10)
            guard highHigh == 0 else { return nil }
            let (high, overflow) = highLow.addingReportingOverflow(lowHigh)
            guard !overflow else { return nil }
            value = SquareSum(high: high, low: lowLow)
            let (low, carry) = value.low.addingReportingOverflow(UInt128(digit - 0x30))
            if carry {
                guard value.high != .max else { return nil }
                value.high += 1
            }
            value.low = low
        }
        self = value
    }
}
