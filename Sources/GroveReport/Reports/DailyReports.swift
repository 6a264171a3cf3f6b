/// `exposure_daily.csv` and `attribution_daily.csv` (SPEC section 10.3, docs/EXPOSURE.md and
/// docs/ATTRIBUTION.md, Days): the figures as a report written at the end of each UTC day would
/// have shown them, for the campaigns the reports name (the folded ones summed day by day into
/// `(other campaigns)`, as in `exposure.csv` and `attribution.csv`).
enum ExposureDailyReport {
    static let fileName = "exposure_daily.csv"
    static let header = ["campaign", "variant", "day", "units", "converted_units", "conversion_rate", "abs_diff", "seq_ci_low", "seq_ci_high"]

    /// One day of a variant: its as-of figures by the end of `day`.
    struct Row: Equatable {
        var day: Int
        var units: Int
        var convertedUnits: Int
        var absDiff: Double?
        var seqCiLow: Double?
        var seqCiHigh: Double?

        var conversionRate: Double { Double(convertedUnits) / Double(units) }
    }

    /// As-of units and converted units of a variant, day by day.
    private struct Cumulative {
        var days: [Int] = []
        var units: [Int] = []
        var converted: [Int] = []

        init(_ tallies: DailyTallies) {
            var (units, converted) = (0, 0)
            for (day, counts) in tallies.sorted {
                units += counts[0]
                converted += counts[1]
                days.append(day)
                self.units.append(units)
                self.converted.append(converted)
            }
        }

        /// The figures by the end of `day`: (0, 0) before the first.
        func asOf(_ day: Int) -> (units: Int, converted: Int) {
            var (low, high) = (0, days.count)
            while low < high {
                let middle = (low + high) / 2
                if days[middle] <= day { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? (0, 0) : (units[low - 1], converted[low - 1])
        }
    }

    /// Each variant's rows of one campaign, in the campaign's variant order.
    static func rows(_ campaign: ExposureCampaign, tuning: Int) -> [(variant: ByteString, rows: [Row])] {
        let controls = campaign.variants.indices.filter { campaign.variants[$0].control }
        let control = controls.count == 1 && campaign.foldedCampaigns == 0 ? controls.first : nil
        let controlDays = control.map { Cumulative(campaign.variants[$0].days) }
        return campaign.variants.indices.compactMap { index in
            let variant = campaign.variants[index]
            guard variant.units > 0, !variant.days.isEmpty else { return nil }
            let cumulative = Cumulative(variant.days)
            let rows = cumulative.days.indices.map { position in
                var row = Row(day: cumulative.days[position], units: cumulative.units[position], convertedUnits: cumulative.converted[position])
                if let controlDays, index != control {
                    let (controlUnits, controlConverted) = controlDays.asOf(row.day)
                    if controlUnits > 0 {
                        let (rate, controlRate) = (row.conversionRate, Double(controlConverted) / Double(controlUnits))
                        let difference = rate - controlRate
                        row.absDiff = difference
                        let se = (rate * (1 - rate) / Double(row.units) + controlRate * (1 - controlRate) / Double(controlUnits)).squareRoot()
                        if se > 0 {
                            let interval = SequentialInterval.interval(
                                difference: difference, standardError: se, units: row.units + controlUnits, tuning: tuning)
                            (row.seqCiLow, row.seqCiHigh) = (interval.low, interval.high)
                        }
                    }
                }
                return row
            }
            return (variant.variant, rows)
        }
    }

    static func csv(_ result: ExposureResult) -> [UInt8] {
        var table = CSVTable(header: header)
        for campaign in result.campaigns {
            for (variant, rows) in rows(campaign, tuning: result.sequentialTuning) {
                for row in rows {
                    table.append([
                        .string(campaign.campaign), .string(variant), .text(DayText.of(row.day)), .integer(row.units),
                        .integer(row.convertedUnits), .decimal(row.conversionRate), .decimal(row.absDiff),
                        .decimal(row.seqCiLow), .decimal(row.seqCiHigh),
                    ])
                }
            }
        }
        return table.rendered()
    }
}

enum AttributionDailyReport {
    static let fileName = "attribution_daily.csv"
    static let header = ["campaign", "day", "clicks", "opens", "attributed"]

    static func csv(_ result: AttributionResult) -> [UInt8] {
        var table = CSVTable(header: header)
        for (campaign, counts) in result.campaigns {
            for (day, tally) in counts.days.sorted where tally[0] > 0 {
                table.append([.string(campaign), .text(DayText.of(day)), .integer(tally[0]), .integer(tally[1]), .integer(tally[2])])
            }
        }
        return table.rendered()
    }
}
