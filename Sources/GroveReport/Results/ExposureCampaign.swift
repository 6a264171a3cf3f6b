/// One row of `exposure.csv`: a campaign's variant.
struct ExposureRow: Sendable, Equatable {
    var campaign: ByteString
    var variant: ByteString
    var control = false
    var units = 0
    var convertedUnits = 0
    var orders = 0
    /// Summed in 128 bits: 2^53 − 1 per order times many orders must not overflow.
    var revenueMinor: Int128 = 0
    /// Σr² over the units (not written: the revenue interval's input).
    var revenueSquares = SquareSum()
    /// By day: (units first exposed, converted units first converting, 0), for `exposure_daily.csv`.
    var days = DailyTallies()
    var impressions = 0
    var absDiff: Double?
    var relLift: Double?
    var ciLow: Double?
    var ciHigh: Double?
    var pValue: Double?
    var srmPValue: Double?
    var revenueAbsDiff: Double?
    var revenueCiLow: Double?
    var revenueCiHigh: Double?
    var revenuePValue: Double?
    var seqCiLow: Double?
    var seqCiHigh: Double?
    var seqPValue: Double?

    var conversionRate: Double? { units == 0 ? nil : Double(convertedUnits) / Double(units) }
    var revenuePerUnit: Double? { units == 0 ? nil : Double(revenueMinor) / Double(units) }
}

/// One campaign of `exposure.json`: its rows and its exclusion counters.
public struct ExposureCampaign: Sendable, Equatable {
    var campaign: ByteString
    var srmPValue: Double?
    var missingCustomer: Int
    var previewContaminated: Int
    var multiVariantUnits: Int
    var variants: [ExposureRow]
    /// For `(other campaigns)`, the number of campaigns summed into it; 0 for a campaign of the logs.
    var foldedCampaigns = 0
}
