/// Pearson's chi-squared goodness-of-fit test of observed counts against expected shares.
enum PearsonChiSquared {
    /// Σ (oᵢ − eᵢ)² / eᵢ with eᵢ = N · shareᵢ / Σ share and N = Σ oᵢ.
    ///
    /// Shares need not sum to 1. Returns nil when the test is undefined: no
    /// observations, fewer than two categories, mismatched lengths, a negative
    /// count, or a share that is not finite and positive.
    static func statistic(observed: [Int], expectedShares: [Double]) -> Double? {
        guard observed.count >= 2,
              observed.count == expectedShares.count,
              observed.allSatisfy({ $0 >= 0 }),
              expectedShares.allSatisfy({ $0 > 0 && $0.isFinite })
        else { return nil }
        // Summed in Double so huge counts cannot overflow Int.
        let total = observed.reduce(0.0) { $0 + Double($1) }
        guard total > 0 else { return nil }
        let scale = total / expectedShares.reduce(0, +)
        // Shares whose sum overflows (or underflows the scale) leave no usable expected counts.
        guard scale.isNormal else { return nil }
        var statistic = 0.0
        for (count, share) in zip(observed, expectedShares) {
            let expected = scale * share
            let difference = Double(count) - expected
            statistic += difference * difference / expected
        }
        return statistic
    }

    /// Upper-tail p-value of `statistic(observed:expectedShares:)` on k − 1 degrees of
    /// freedom for k categories; nil when the statistic is.
    static func upperTailPValue(observed: [Int], expectedShares: [Double]) -> Double? {
        guard let statistic = statistic(observed: observed, expectedShares: expectedShares) else {
            return nil
        }
        return ChiSquaredDistribution.upperTail(statistic, degreesOfFreedom: observed.count - 1)
    }
}
