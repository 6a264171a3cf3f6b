import Foundation

/// Regularized incomplete gamma functions, the common core of the normal and
/// chi-squared tails, implemented here so no platform special functions are needed.
///
/// Whichever of P and Q the method produces is computed directly (series for
/// x < a + 1, continued fraction otherwise) and the other is its complement; the
/// directly computed side is the small one in far tails, so tails stay relatively
/// accurate. The final `exp` is taken in log space so results that land in the
/// subnormal range lose no more than that range forces.
enum IncompleteGamma {
    /// Lower regularized incomplete gamma P(a, x) = γ(a, x) / Γ(a).
    static func p(_ a: Double, _ x: Double) -> Double {
        regularized(a, x).p
    }

    /// Upper regularized incomplete gamma Q(a, x) = Γ(a, x) / Γ(a).
    static func q(_ a: Double, _ x: Double) -> Double {
        regularized(a, x).q
    }

    /// P(a, x) and Q(a, x) together; both NaN unless a is finite and positive and x ≥ 0.
    static func regularized(_ a: Double, _ x: Double) -> (p: Double, q: Double) {
        guard a > 0, a.isFinite, x >= 0 else { return (.nan, .nan) }
        if x == 0 { return (0, 1) }
        if x == .infinity { return (1, 0) }
        if x < a + 1 {
            let p = lowerSeries(a, x)
            return (p, 1 - p)
        }
        let q = upperContinuedFraction(a, x)
        return (1 - q, q)
    }

    /// ln Γ(x) for x > 0 by the Lanczos approximation (g = 7, n = 9): about 1e-15 relative
    /// error, absolute near the zeros at 1 and 2.
    static func logGamma(_ x: Double) -> Double {
        if x < 0.5 {
            // Reflection keeps the Lanczos sum in the half-plane where it is accurate.
            return log(Double.pi / sin(Double.pi * x)) - logGamma(1 - x)
        }
        let z = x - 1
        var sum = lanczosCoefficients[0]
        for i in 1..<lanczosCoefficients.count {
            sum += lanczosCoefficients[i] / (z + Double(i))
        }
        let t = z + 7.5
        return 0.5 * log(2 * Double.pi) + (z + 0.5) * log(t) - t + log(sum)
    }

    private static let lanczosCoefficients: [Double] = [
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7,
    ]

    /// Both expansions need O(√a) terms near x ≈ a; the cap only guards against non-convergence.
    private static func iterationLimit(_ a: Double) -> Int {
        100 + Int(20 * a.squareRoot())
    }

    /// ln(xᵃ e⁻ˣ / Γ(a)), the factor shared by both expansions.
    ///
    /// For large a the terms of a·ln x − x − ln Γ(a) are huge and nearly cancel, so
    /// Stirling's series is used to cancel them analytically instead.
    private static func logPrefactor(_ a: Double, _ x: Double) -> Double {
        if a < 20 { return a * log(x) - x - logGamma(a) }
        let inverse = 1 / a
        let inverseSquared = inverse * inverse
        // ln Γ(a) − ((a − ½) ln a − a + ½ ln 2π); truncation error below 1/(1188 a⁹) ≤ 2e-15.
        let stirlingCorrection = inverse * (1.0 / 12 - inverseSquared * (1.0 / 360
            - inverseSquared * (1.0 / 1260 - inverseSquared / 1680)))
        return logRatioDeficit(a, x) + 0.5 * log(a / (2 * Double.pi)) - stirlingCorrection
    }

    /// a·ln(x/a) − (x − a), accurate when x ≈ a, where the two terms nearly cancel.
    private static func logRatioDeficit(_ a: Double, _ x: Double) -> Double {
        let difference = x - a
        let u = difference / (x + a)
        guard abs(u) < 0.25 else { return a * log(x / a) - difference }
        // ln(x/a) = 2·artanh(u) = 2(u + u³/3 + u⁵/5 + …) and 2a·u − (x − a) = −(x − a)·u,
        // which leaves only the small higher-order terms to sum.
        let uSquared = u * u
        var power = u * uSquared
        var sum = 0.0
        var n = 3.0
        repeat {
            sum += power / n
            power *= uSquared
            n += 2
        } while abs(power) > abs(sum) * Double.ulpOfOne
        return 2 * a * sum - difference * u
    }

    /// P(a, x) = xᵃ e⁻ˣ / Γ(a) · Σ xⁿ / (a (a+1) ⋯ (a+n)); converges quickly for x < a + 1.
    private static func lowerSeries(_ a: Double, _ x: Double) -> Double {
        var denominator = a
        var term = 1 / a
        var sum = term
        for _ in 0..<iterationLimit(a) {
            denominator += 1
            term *= x / denominator
            sum += term
            if abs(term) < abs(sum) * Double.ulpOfOne { break }
        }
        return exp(logPrefactor(a, x) + log(sum))
    }

    /// Q(a, x) from its continued fraction, evaluated by the modified Lentz method; for x ≥ a + 1.
    private static func upperContinuedFraction(_ a: Double, _ x: Double) -> Double {
        let tiny = Double.leastNormalMagnitude / Double.ulpOfOne
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var fraction = d
        for i in 1...iterationLimit(a) {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            fraction *= delta
            if abs(delta - 1) < Double.ulpOfOne { break }
        }
        return exp(logPrefactor(a, x) + log(fraction))
    }
}
