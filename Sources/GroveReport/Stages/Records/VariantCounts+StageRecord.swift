/// `variant_counts`, keyed by campaign and variant: the counts of an `exposure.csv` row.
extension VariantCounts: KeyedStageRecord {
    static let kind = "variant_counts"
    static var store: WritableKeyPath<PartialState, PairKeyedRecords<VariantCounts>> { \.joins.variants }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("counts", encoder.counts([units, convertedUnits, orders, impressions, controlUnits])),
            JSONOutput.Member("revenue", .text(String(revenueMinor))),
            JSONOutput.Member("revenue_squares", .text(revenueSquares.decimal)),
            JSONOutput.Member("days", encoder.days(days, width: 2)),
        ]
    }

    static func decoded(key: SymbolPair, _ decoder: inout RecordDecoder) throws(RecordError) -> VariantCounts {
        let values = try decoder.integers("counts", count: 5)
        var counts = VariantCounts()
        (counts.units, counts.convertedUnits, counts.orders, counts.impressions) = (values[0], values[1], values[2], values[3])
        counts.controlUnits = values[4]
        guard let revenue = Int128(try decoder.string("revenue")), revenue >= 0 else { throw decoder.failure("bad revenue") }
        try decoder.limits.addRevenue(revenue, line: decoder.lineNumber)
        counts.revenueMinor = revenue
        // Σr² ≤ (Σr)² ≤ 2^240 (`RecordLimits.maximumRevenueTotal`).
        guard let squares = SquareSum(decimal: try decoder.string("revenue_squares")), squares.high >> 113 == 0
        else { throw decoder.failure("bad revenue_squares") }
        counts.revenueSquares = squares
        counts.days = try decoder.days("days", width: 2)
        return counts
    }
}
