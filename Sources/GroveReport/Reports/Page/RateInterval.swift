/// The 95% interval of a conversion rate the page draws (docs/PAGE.md):
/// p ± 1.959963984540054·sqrt(p(1−p)/n), clipped to [0, 1].
struct RateInterval: Equatable {
    var rate: Double
    var low: Double
    var high: Double

    /// nil when the row has no units (no rate).
    init?(_ row: ExposureRow) {
        guard let rate = row.conversionRate else { return nil }
        let margin = Lift.criticalValue95 * (rate * (1 - rate) / Double(row.units)).squareRoot()
        self.rate = rate
        low = max(0, rate - margin)
        high = min(1, rate + margin)
    }
}
