/// Chi-squared distribution, for goodness-of-fit p-values.
enum ChiSquaredDistribution {
    /// P(X > x) for X ~ χ²(k), i.e. Q(k/2, x/2); 1 for x ≤ 0 and NaN for NaN x or k < 1.
    static func upperTail(_ x: Double, degreesOfFreedom k: Int) -> Double {
        guard k >= 1, !x.isNaN else { return .nan }
        guard x > 0 else { return 1 }
        return IncompleteGamma.q(Double(k) / 2, x / 2)
    }
}
