/// What a simulator remembers of one kind of entity (clicks, decisions, installs…) so later
/// lines can refer back to it: the recent ones always, and with `generate --days` also a long
/// memory per kind of reference, so a reference can reach back days as in real journeys.
/// Without a long memory it draws exactly as a plain `RecentPool` does, so the default output
/// stays byte for byte.
struct EntityMemory<Element> {
    private struct Remembered {
        var element: Element
        var instant: EpochNanoseconds
    }

    private var recent: RecentPool<Remembered>
    /// One per kind of reference that reaches back days; empty without `--days`.
    private var longMemory: [ScheduledReferences<Element>]

    /// `reaches` lists, with `--days`, the references into this memory that reach back days.
    init(capacity: Int, reaches: [MemoryReach] = []) {
        recent = RecentPool(capacity: capacity)
        longMemory = reaches.map { ScheduledReferences(reach: $0) }
    }

    /// How many recent elements are remembered.
    var count: Int {
        recent.count
    }

    /// Remembers `element`, created by a line at `instant`, and schedules its later references.
    mutating func add(_ element: Element, at instant: EpochNanoseconds, using rng: inout SeededRandom) {
        recent.add(Remembered(element: element, instant: instant))
        for index in longMemory.indices {
            longMemory[index].schedule(element, at: instant, using: &rng)
        }
    }

    /// A uniformly chosen recent element, of any age: for retries and duplicates.
    func randomElement(using rng: inout SeededRandom) -> Element? {
        recent.randomElement(using: &rng)?.element
    }

    /// The entity a line at `instant` refers to. Without a long memory for `reach`, a uniformly
    /// chosen recent one. With it, `reach.longShare` of the time the one due longest ago,
    /// otherwise (or when none is due) one at most `MultiDayJourneys.recentHorizon` old; never
    /// one from after `instant` or older than `reach.maxAge`. Nil when there is none.
    mutating func randomElement(referencedAt instant: EpochNanoseconds, reach: MemoryReach,
                                using rng: inout SeededRandom) -> Element? {
        guard let index = longMemory.firstIndex(where: { $0.reach == reach }) else {
            return randomElement(using: &rng)
        }
        if rng.chance(reach.longShare), let element = longMemory[index].takeDue(at: instant) {
            return element
        }
        return recentElement(referencedAt: instant, maxAge: min(reach.maxAge, MultiDayJourneys.recentHorizon),
                             using: &rng)
    }

    /// A recent element at most `maxAge` old and not from after `instant`: draws among the
    /// remembered additions, and when the one drawn is too old draws again among those added
    /// after it (too new: before it).
    private func recentElement(referencedAt instant: EpochNanoseconds, maxAge: EpochNanoseconds,
                               using rng: inout SeededRandom) -> Element? {
        var newest = 0
        var bound = recent.count
        while newest < bound {
            let offset = newest + rng.below(bound - newest)
            let candidate = recent.element(addedBefore: offset)
            let age = instant - candidate.instant
            if age > maxAge {
                bound = offset
            } else if age < 0 {
                newest = offset + 1
            } else {
                return candidate.element
            }
        }
        return nil
    }
}
