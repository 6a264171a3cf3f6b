import Testing
@testable import GroveReport

// Reference values were printed with 17 significant digits by scipy 1.17.1 (numpy 2.4.6)
// using the function named above each table, and checked against mpmath 1.4.1 at 50 digits;
// scipy agrees with mpmath to 1.4e-14 relative or better on every value used here.

/// Within 1e-10 absolute and 1e-9 relative, so far-tail values are checked digit by digit.
private func isClose(_ actual: Double, _ expected: Double) -> Bool {
    let error = abs(actual - expected)
    return error <= 1e-10 && error <= 1e-9 * abs(expected)
}

// scipy.stats.norm.cdf(x)
private let normalCDFReferences: [(x: Double, cdf: Double)] = [
    (0, 0.5),
    (1, 0.84134474606854293),
    (-1, 0.15865525393145707),
    (1.959963984540054, 0.97499999999999998),
    (-1.959963984540054, 0.025000000000000001),
    (5, 0.99999971334842808),
    (-5, 2.8665157187919328e-07),
    (8, 0.99999999999999933),
    (-8, 6.2209605742717405e-16),
    (38, 1),
]

@Test(arguments: normalCDFReferences)
func normalCDFMatchesReferenceInBodyAndTails(x: Double, cdf: Double) {
    #expect(isClose(NormalDistribution.cdf(x), cdf))
}

@Test func normalCDFStaysRelativelyAccurateInSubnormalLowerTail() {
    // scipy.stats.norm.cdf(-38) underflows to 0, so this reference is mpmath 1.4.1
    // float(mpmath.ncdf(-38)) = 2.8854283510039645e-316, written as a multiple of the
    // subnormal spacing because a subnormal literal draws a compiler warning. A subnormal
    // this small carries only ~8 significant digits, so allow two units of that spacing
    // instead of 1e-9 relative.
    let reference = 58_401_720 * Double.leastNonzeroMagnitude
    let value = NormalDistribution.cdf(-38)
    #expect(abs(value - reference) <= 2 * Double.leastNonzeroMagnitude)
}

@Test func normalCDFIsSymmetricAboutZero() {
    for x in [0.1, 0.7, 1.5, 2.5, 4, 6.5] {
        #expect(abs(NormalDistribution.cdf(x) + NormalDistribution.cdf(-x) - 1) <= 1e-15)
    }
}

@Test func normalCDFSaturatesAtInfinitiesAndPropagatesNaN() {
    #expect(NormalDistribution.cdf(.infinity) == 1)
    #expect(NormalDistribution.cdf(-.infinity) == 0)
    #expect(NormalDistribution.cdf(.nan).isNaN)
}

// 2 * scipy.stats.norm.sf(z)
private let twoSidedPValueReferences: [(z: Double, p: Double)] = [
    (0, 1),
    (1.96, 0.04999579029644087),
    (3, 0.0026997960632601866),
    (10, 1.5239706048320939e-23),
]

@Test(arguments: twoSidedPValueReferences)
func twoSidedPValueMatchesReferenceForEitherSign(z: Double, p: Double) {
    #expect(isClose(NormalDistribution.twoSidedPValue(z: z), p))
    #expect(isClose(NormalDistribution.twoSidedPValue(z: -z), p))
}

@Test func twoSidedPValueIsZeroAtInfinityAndNaNForNaN() {
    #expect(NormalDistribution.twoSidedPValue(z: .infinity) == 0)
    #expect(NormalDistribution.twoSidedPValue(z: -.infinity) == 0)
    #expect(NormalDistribution.twoSidedPValue(z: .nan).isNaN)
}

// scipy.stats.chi2.sf(x, k)
private let chiSquaredUpperTailReferences: [(x: Double, k: Int, p: Double)] = [
    (1e-08, 1, 0.99992021154405264),
    (0.5, 1, 0.47950012218695337),
    (3.841458820694124, 1, 0.049999999999999892),
    (20, 1, 7.7442164310440875e-06),
    (90, 1, 2.3816001643962959e-21),
    (120, 1, 6.326068263677272e-28),
    (1e-08, 2, 0.99999999500000003),
    (0.5, 2, 0.77880078307140488),
    (3.841458820694124, 2, 0.1465000644860843),
    (20, 2, 4.5399929762484861e-05),
    (90, 2, 2.8625185805493882e-20),
    (120, 2, 8.7565107626964942e-27),
    (1e-08, 3, 0.99999999999973399),
    (0.5, 3, 0.9188914116546758),
    (3.841458820694124, 3, 0.27910046378359765),
    (20, 3, 0.00016974243555282632),
    (90, 3, 2.190570119285308e-19),
    (120, 3, 7.7167903556341624e-26),
    (1e-08, 7, 1),
    (0.5, 7, 0.99944648139042491),
    (3.841458820694124, 7, 0.79784653419453189),
    (20, 7, 0.0055696830729455738),
    (90, 7, 1.2372404171748514e-16),
    (120, 7, 7.6612464633530068e-23),
    (20000, 19999, 0.49667547194641115),
    (20600, 19999, 0.00144682782264151),
    (1005000, 1_000_000, 0.00020767800946702958),
]

@Test(arguments: chiSquaredUpperTailReferences)
func chiSquaredUpperTailMatchesReferenceFromTinyToFarTail(x: Double, k: Int, p: Double) {
    #expect(isClose(ChiSquaredDistribution.upperTail(x, degreesOfFreedom: k), p))
}

@Test func chiSquaredUpperTailIsOneAtOrBelowZeroAndNaNForInvalidInput() {
    #expect(ChiSquaredDistribution.upperTail(0, degreesOfFreedom: 3) == 1)
    #expect(ChiSquaredDistribution.upperTail(-2, degreesOfFreedom: 1) == 1)
    #expect(ChiSquaredDistribution.upperTail(.infinity, degreesOfFreedom: 2) == 0)
    #expect(ChiSquaredDistribution.upperTail(.nan, degreesOfFreedom: 2).isNaN)
    #expect(ChiSquaredDistribution.upperTail(1, degreesOfFreedom: 0).isNaN)
}

// scipy.special.gammainc(a, x) and scipy.special.gammaincc(a, x)
private let incompleteGammaReferences: [(a: Double, x: Double, p: Double, q: Double)] = [
    (0.5, 50, 1, 1.5239706048320995e-23),
    (0.5, 0.5, 0.68268949213708585, 0.31731050786291115),
    (1, 1, 0.63212055882855767, 0.36787944117144245),
    (2.5, 1e-06, 3.0090089629618914e-16, 0.99999999999999967),
    (3.5, 2, 0.22022259152428406, 0.77977740847571597),
    (10, 30, 0.99999287824913718, 7.1217508628155928e-06),
    (50, 51, 0.57439485951685954, 0.42560514048314035),
    (1000, 1100, 0.99894067674607012, 0.0010593232539299773),
]

@Test(arguments: incompleteGammaReferences)
func incompleteGammaMatchesReferenceOnBothSides(a: Double, x: Double, p: Double, q: Double) {
    #expect(isClose(IncompleteGamma.p(a, x), p))
    #expect(isClose(IncompleteGamma.q(a, x), q))
}

@Test func lowerAndUpperIncompleteGammaSumToOne() {
    for a in [0.5, 1, 1.5, 3.5, 12, 20, 75] {
        for x in [1e-6, 0.3, 1, a, a + 1, 2 * a + 3, 200] {
            let (p, q) = IncompleteGamma.regularized(a, x)
            #expect(abs(p + q - 1) <= 1e-15, "a=\(a) x=\(x)")
        }
    }
}

@Test func incompleteGammaHandlesDomainEdges() {
    #expect(IncompleteGamma.regularized(2, 0) == (p: 0, q: 1))
    #expect(IncompleteGamma.regularized(2, .infinity) == (p: 1, q: 0))
    #expect(IncompleteGamma.q(0, 1).isNaN)
    #expect(IncompleteGamma.q(1, -1).isNaN)
    #expect(IncompleteGamma.p(.nan, 1).isNaN)
    #expect(IncompleteGamma.p(1, .nan).isNaN)
}

// scipy.special.gammaln(x)
private let logGammaReferences: [(x: Double, logGamma: Double)] = [
    (1e-08, 18.420680738180209),
    (0.5, 0.57236494292469997),
    (1, 0),
    (1.5, -0.12078223763524526),
    (2, 0),
    (3, 0.69314718055994529),
    (7.3, 7.1478925230222492),
    (19.5, 37.861086508961094),
    (100, 359.1342053695754),
]

@Test(arguments: logGammaReferences)
func logGammaMatchesReferenceToNearMachinePrecision(x: Double, logGamma: Double) {
    #expect(abs(IncompleteGamma.logGamma(x) - logGamma) <= 1e-14 * max(1, abs(logGamma)))
}

// Hand-computed statistics; p-values from scipy.stats.chisquare(observed, expected).
@Test func pearsonStatisticIsZeroWhenCountsMatchSharesExactly() {
    #expect(PearsonChiSquared.statistic(observed: [50, 50], expectedShares: [1, 1]) == 0)
    #expect(PearsonChiSquared.upperTailPValue(observed: [50, 50], expectedShares: [1, 1]) == 1)
}

@Test func pearsonStatisticForSixtyFortyAgainstEvenSplitIsFour() throws {
    // (60 − 50)²/50 + (40 − 50)²/50 = 4
    let statistic = try #require(PearsonChiSquared.statistic(observed: [60, 40], expectedShares: [0.5, 0.5]))
    let p = try #require(PearsonChiSquared.upperTailPValue(observed: [60, 40], expectedShares: [0.5, 0.5]))
    #expect(abs(statistic - 4) <= 1e-12)
    #expect(isClose(p, 0.04550026389635857))
}

@Test func pearsonStatisticUsesWeightedShares() throws {
    // Shares 1:3 of 100 expect 25 and 75: (30 − 25)²/25 + (70 − 75)²/75 = 4/3
    let statistic = try #require(PearsonChiSquared.statistic(observed: [30, 70], expectedShares: [1, 3]))
    let p = try #require(PearsonChiSquared.upperTailPValue(observed: [30, 70], expectedShares: [1, 3]))
    #expect(abs(statistic - 4.0 / 3) <= 1e-12)
    #expect(isClose(p, 0.24821307898992026))
}

@Test func pearsonSharesNeedNotSumToOne() throws {
    // Expected 10, 20, 30, 40: 25/10 + 25/20 + 0 + 100/40 = 6.25 on 3 degrees of freedom
    let observed = [5, 15, 30, 50]
    let fromCounts = try #require(PearsonChiSquared.statistic(observed: observed, expectedShares: [1, 2, 3, 4]))
    let fromFractions = try #require(
        PearsonChiSquared.statistic(observed: observed, expectedShares: [0.1, 0.2, 0.3, 0.4]))
    let p = try #require(PearsonChiSquared.upperTailPValue(observed: observed, expectedShares: [1, 2, 3, 4]))
    #expect(abs(fromCounts - 6.25) <= 1e-12)
    #expect(abs(fromFractions - 6.25) <= 1e-12)
    #expect(isClose(p, 0.10006083311939494))
}

@Test func pearsonIsUndefinedWithoutDataOrWithUnusableShares() {
    let undefined: [(observed: [Int], shares: [Double])] = [
        ([0, 0], [1, 1]),
        ([10], [1]),
        ([], []),
        ([5, 5], [1, 0]),
        ([5, 5], [1, -1]),
        ([5, 5], [1, .nan]),
        ([5, 5], [1, .infinity]),
        ([5, 5, 5], [1, 1]),
        ([5, -1], [1, 1]),
    ]
    for (observed, shares) in undefined {
        #expect(PearsonChiSquared.statistic(observed: observed, expectedShares: shares) == nil)
        #expect(PearsonChiSquared.upperTailPValue(observed: observed, expectedShares: shares) == nil)
    }
}
