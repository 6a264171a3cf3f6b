import GroveReport

/// Simulated wall time that sweeps a few days of March 2026 over the requested number of lines,
/// so lines come out roughly — but, as in real exported logs, not strictly — in time order.
struct SimulatedClock {
    /// 2026-03-02T00:00:00Z.
    static let start = EpochNanoseconds(CivilDate.daysSinceEpoch(year: 2026, month: 3, day: 2)) * 86_400_000_000_000
    /// Three days.
    static let span: EpochNanoseconds = 3 * 86_400_000_000_000

    private(set) var now = SimulatedClock.start
    /// Average advance per line, so the last line lands near the end of the span whatever N is.
    private let meanStep: Int

    /// A clock sweeping `span` (three days unless `generate --days` says otherwise).
    init(lines: Int, span: EpochNanoseconds = SimulatedClock.span) {
        meanStep = Int(span / EpochNanoseconds(max(lines, 1)))
    }

    /// Advances the clock and returns the `ts` of the next line: a few seconds of jitter around
    /// the clock, and now and then a straggler that arrives minutes to hours late.
    mutating func nextLineInstant(using rng: inout SeededRandom) -> EpochNanoseconds {
        now += EpochNanoseconds(rng.below(2 * meanStep + 1))
        if rng.chance(0.002) {
            return now - EpochNanoseconds(rng.inRange(60...6 * 3600)) * 1_000_000_000
        }
        return now + EpochNanoseconds(rng.inRange(-3_000_000_000...3_000_000_000))
    }
}
