/// Standard normal distribution, for z-scores in the exposure report.
///
/// Both functions go through Q(1/2, x²/2) = erfc(|x|/√2), so lower tails and
/// p-values are computed directly rather than as 1 − (something near 1).
public enum NormalDistribution {
    /// Φ(x), the standard normal CDF; NaN for NaN.
    public static func cdf(_ x: Double) -> Double {
        guard !x.isNaN else { return .nan }
        let tail = IncompleteGamma.q(0.5, x * x / 2) / 2
        return x >= 0 ? 1 - tail : tail
    }

    /// 2·(1 − Φ(|z|)), the two-sided p-value of a z-score, without cancellation;
    /// 0 for ±infinity and NaN for NaN.
    public static func twoSidedPValue(z: Double) -> Double {
        guard !z.isNaN else { return .nan }
        return IncompleteGamma.q(0.5, z * z / 2)
    }
}
