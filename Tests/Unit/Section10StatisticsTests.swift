import Testing
@testable import GroveReport

/// Hand-computed fixtures for SPEC section 10.2 (docs/EXPOSURE.md, Revenue interval and
/// Always-valid interval): the worked examples of issue 32 and the empty cases.
struct Section10StatisticsTests {
    /// Conversion 120/1000 against a control of 100/1000.
    private func conversionRows(tuning: Int) -> ExposureRow {
        var rows = [
            ExposureRow(campaign: ByteString("c"), variant: ByteString("control"), control: true, units: 1000, convertedUnits: 100),
            ExposureRow(campaign: ByteString("c"), variant: ByteString("treat"), units: 1000, convertedUnits: 120),
        ]
        Lift.fill(&rows, tuning: tuning)
        #expect(rows[0].seqCiLow == nil && rows[0].seqCiHigh == nil && rows[0].seqPValue == nil)
        return rows[1]
    }

    @Test func theAlwaysValidIntervalOfTheWorkedExampleAtTheDefaultTuning() {
        let row = conversionRows(tuning: 5000)
        #expect(row.ciLow == -0.0074114819980199455)
        #expect(row.ciHigh == 0.04741148199801992)
        #expect(row.seqCiLow == -0.023688259076519287)
        #expect(row.seqCiHigh == 0.06368825907651926)
        #expect(row.seqPValue == 0.9388856039651484)
    }

    @Test func theAlwaysValidIntervalOfTheWorkedExampleAtT2000() {
        let row = conversionRows(tuning: 2000)
        #expect(row.seqCiLow == -0.02244954359171627)
        #expect(row.seqCiHigh == 0.06244954359171625)
        #expect(row.seqPValue == 1.0)
    }

    /// Rows of unit revenues: every unit converted with one order of its revenue, or none.
    private func revenueRow(_ name: String, _ revenues: [Int128], control: Bool = false) -> ExposureRow {
        var row = ExposureRow(campaign: ByteString("c"), variant: ByteString(name), control: control, units: revenues.count)
        row.convertedUnits = revenues.filter { $0 > 0 }.count
        row.revenueMinor = revenues.reduce(0, +)
        for revenue in revenues { row.revenueSquares += SquareSum(squareOf: revenue) }
        return row
    }

    @Test func theRevenueIntervalOfTheWorkedExample() {
        var rows = [revenueRow("a-control", [0, 1000, 0], control: true), revenueRow("b", [0, 0, 500, 1500])]
        Lift.fill(&rows)
        #expect(rows[1].revenueAbsDiff == 166.66666666666669)
        #expect(rows[1].revenueCiLow == -785.7046424568643)
        #expect(rows[1].revenueCiHigh == 1119.0379757901978)
        #expect(rows[1].revenuePValue == 0.7316005889599013)
        #expect(rows[0].revenueAbsDiff == nil && rows[0].revenueCiLow == nil)
    }

    @Test func theRevenueIntervalIsEmptyWithFewerThanTwoUnitsOrNoSpread() {
        var single = [revenueRow("a", [0, 1000], control: true), revenueRow("b", [700])]
        Lift.fill(&single)
        #expect(single[1].revenueAbsDiff == 200)
        #expect(single[1].revenueCiLow == nil && single[1].revenueCiHigh == nil && single[1].revenuePValue == nil)
        var flat = [revenueRow("a", [0, 0], control: true), revenueRow("b", [0, 0, 0])]
        Lift.fill(&flat)
        #expect(flat[1].revenueAbsDiff == 0)
        #expect(flat[1].revenueCiLow == nil && flat[1].revenuePValue == nil)
    }

    @Test func theRevenueIntervalIsEmptyWhenAnExactIntermediateOverflows128Bits() {
        // n·Σr² = 2·2·(2^62)² = 2^126 fits; with three units 3·3·2^124 does not.
        let large: Int128 = 1 << 62
        #expect(RevenueInterval.variance(units: 2, revenue: 2 * large, squares: { var s = SquareSum(); s += SquareSum(squareOf: large); s += SquareSum(squareOf: large); return s }()) == 0)
        var rows = [revenueRow("a", [0, 1000], control: true), revenueRow("b", [large, large, large])]
        Lift.fill(&rows)
        #expect(rows[1].revenueAbsDiff != nil)
        #expect(rows[1].revenueCiLow == nil && rows[1].revenueCiHigh == nil && rows[1].revenuePValue == nil)
        // Σr² beyond 128 bits at all.
        #expect(RevenueInterval.variance(units: 2, revenue: 1 << 100, squares: SquareSum(squareOf: 1 << 100)) == nil)
    }

    @Test func squareSumsAreExactAndReadBackFromDecimal() throws {
        let big = SquareSum(squareOf: Int128(1) << 120)   // 2^240
        #expect(big.high == UInt128(1) << 112 && big.low == 0)
        let text = big.decimal
        #expect(text == "1766847064778384329583297500742918515827483896875618958121606201292619776")
        #expect(SquareSum(decimal: text) == big)
        var sum = big
        sum += big.negated
        #expect(sum == SquareSum())
        #expect(SquareSum(decimal: "12") == SquareSum(squareOf: 0) + 12)
        #expect(SquareSum(decimal: "-1") == nil && SquareSum(decimal: "") == nil)
    }
}

private func + (lhs: SquareSum, rhs: UInt128) -> SquareSum {
    var sum = lhs
    sum += SquareSum(high: 0, low: rhs)
    return sum
}
