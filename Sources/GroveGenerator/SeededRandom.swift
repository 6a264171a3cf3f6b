/// SplitMix64: a tiny generator whose output depends on nothing but its seed, so
/// `generate --seed S` writes the same bytes on every machine and with every Swift release.
/// (The system generator is not seedable, and the standard library's bounded-integer algorithms
/// are not promised to stay the same, so bounded draws are done here too.)
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A generator for entity `index` of one kind (`stream`): a click, an install, an order…
    /// Its attributes can be drawn again from the number alone whenever a later line refers back
    /// to it, so the generator remembers numbers, never payloads.
    init(seed: UInt64, stream: UInt64, index: UInt64) {
        state = Self.mix(seed ^ Self.mix(stream &* 0x9E37_79B9_7F4A_7C15 &+ index))
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finalizer: spreads every input bit over the whole output.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` by Lemire's multiply-high; its bias (at most bound / 2⁶⁴) is far
    /// below anything a synthetic log could show.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Uniform in `range`.
    mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with the given probability; exact IEEE arithmetic, hence the same on every machine.
    mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) * 0x1p-53 < probability
    }
}
