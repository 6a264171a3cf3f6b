#if canImport(Glibc)
import Glibc
#endif

/// The normal-mixture confidence sequence for a difference of conversion rates
/// (docs/EXPOSURE.md, Always-valid interval): valid however often it is looked at.
enum SequentialInterval {
    /// α of the 95% sequence.
    static let alpha = 0.05
    /// T: the total units at which the interval is tightest (`--sequential-tuning`).
    static let defaultTuning = 5000

    /// `seq_ci_low`, `seq_ci_high` and `seq_p_value` of a difference with standard error `se`
    /// (> 0) over `units` = n_v + n_c, exactly as the formulas are written.
    static func interval(difference: Double, standardError se: Double, units: Int, tuning: Int)
        -> (low: Double, high: Double, pValue: Double)
    {
        let n = Double(units)
        let variance = n * se * se
        let rho2 = (-2 * log(alpha) + log(1 - 2 * log(alpha))) / Double(tuning)
        let half = (2 * variance * (n * rho2 + 1) / (n * n * rho2) * log((n * rho2 + 1).squareRoot() / alpha)).squareRoot()
        let p = min(1, (n * rho2 + 1).squareRoot() * exp(-n * n * rho2 * difference * difference / (2 * variance * (n * rho2 + 1))))
        return (difference - half, difference + half, p)
    }
}

/// The difference of revenue per unit with its interval (docs/EXPOSURE.md, Revenue).
enum RevenueInterval {
    /// s² = (n·Σr² − (Σr)²) / (n·(n − 1)), the numerator exact in 128 bits and only then a
    /// double; nil when n < 2 or an exact intermediate does not fit in a signed 128-bit integer.
    static func variance(units: Int, revenue: Int128, squares: SquareSum) -> Double? {
        guard units >= 2, let squares = squares.int128 else { return nil }
        let (scaled, overflow) = Int128(units).multipliedReportingOverflow(by: squares)
        guard !overflow else { return nil }
        let (squaredSum, squaredOverflow) = revenue.multipliedReportingOverflow(by: revenue)
        guard !squaredOverflow else { return nil }
        let (numerator, differenceOverflow) = scaled.subtractingReportingOverflow(squaredSum)
        guard !differenceOverflow else { return nil }
        return Double(numerator) / (Double(units) * Double(units - 1))
    }

    /// `revenue_ci_low`, `revenue_ci_high`, `revenue_p_value`; nil when either side's variance
    /// is (n < 2, an overflow) or the standard error is 0.
    static func interval(difference: Double, variant: (units: Int, variance: Double?), control: (units: Int, variance: Double?))
        -> (low: Double, high: Double, pValue: Double)?
    {
        guard let variantVariance = variant.variance, let controlVariance = control.variance else { return nil }
        let se = (variantVariance / Double(variant.units) + controlVariance / Double(control.units)).squareRoot()
        guard se > 0 else { return nil }
        return (difference - Lift.criticalValue95 * se, difference + Lift.criticalValue95 * se,
                NormalDistribution.twoSidedPValue(z: difference / se))
    }
}
