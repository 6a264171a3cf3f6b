/// With `generate --days`, three testers in four start previewing only some hours to days after
/// their install first appears: until then they use the app as ordinary users, bucketed in
/// campaigns like anyone else (mostly the one they will preview). When they start — at their
/// scheduled time, or earlier when they pair a preview link — their install becomes a preview
/// install, which retroactively excludes its earlier events of that campaign (unit scope).
struct PreviewStartSchedule {
    /// The earliest and latest start after the install's first line.
    static let delays: ClosedRange<Int> = 2 * 3600...5 * 86_400

    private let seed: UInt64
    /// Testers not previewing yet, with the instant they start. Started ones are dropped.
    private var waiting: [UInt64: EpochNanoseconds] = [:]
    /// The size that makes `register` drop testers whose start has passed.
    private var pruneAt = 1024

    init(seed: UInt64) {
        self.seed = seed
    }

    /// Three testers in four (by number) start late.
    static func startsLate(_ installNumber: UInt64) -> Bool {
        installNumber % 50 == 7 && (installNumber / 50) % 4 != 0
    }

    /// Schedules the start of a late-starting tester whose first line is at `instant`.
    mutating func register(_ installNumber: UInt64, firstSeenAt instant: EpochNanoseconds) {
        guard Self.startsLate(installNumber) else { return }
        var rng = SeededRandom(seed: seed, stream: 9, index: installNumber)
        waiting[installNumber] = instant + EpochNanoseconds(rng.inRange(Self.delays)) * 1_000_000_000
        if waiting.count >= pruneAt {
            waiting = waiting.filter { $0.value > instant }
            pruneAt = max(1024, 2 * waiting.count)
        }
    }

    /// Whether the tester still acts as an ordinary user at `instant`.
    mutating func isWaiting(_ installNumber: UInt64, at instant: EpochNanoseconds) -> Bool {
        guard let start = waiting[installNumber] else { return false }
        if instant >= start {
            waiting[installNumber] = nil
            return false
        }
        return true
    }

    /// The tester paired a preview link: it previews from now on.
    mutating func startNow(_ installNumber: UInt64) {
        waiting[installNumber] = nil
    }
}
