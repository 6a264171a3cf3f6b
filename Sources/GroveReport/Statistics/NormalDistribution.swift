#if canImport(Glibc)
import Glibc
#endif

/// Standard normal distribution, for z-scores in the exposure report: through libm's `erfc`,
/// so lower tails and p-values are computed directly rather than as 1 − (something near 1).
enum NormalDistribution {
    /// Φ(x), the standard normal CDF; NaN for NaN.
    static func cdf(_ x: Double) -> Double {
        erfc(-x / 2.0.squareRoot()) / 2
    }

    /// 2·(1 − Φ(|z|)) = erfc(|z|/√2), the two-sided p-value of a z-score, without cancellation;
    /// 0 for ±infinity and NaN for NaN.
    static func twoSidedPValue(z: Double) -> Double {
        erfc(abs(z) / 2.0.squareRoot())
    }
}
