/// What a simulator remembers of one kind of entity (clicks, decisions, installs…) so later
/// lines can refer back to it: the recent ones always, and with `generate --days` also a sparse
/// long memory, so a reference can reach back days as in real journeys. Without the long memory
/// it draws exactly as a plain `RecentPool` does, so the default output stays byte for byte.
struct EntityMemory<Element> {
    private struct Remembered {
        var element: Element
        var instant: EpochNanoseconds
    }

    private var recent: RecentPool<Remembered>
    private var longMemory: LongMemoryPool<Element>?

    /// `longSpan` is nil without `--days`; otherwise how far back the long memory covers.
    init(capacity: Int, longSpan: EpochNanoseconds?) {
        recent = RecentPool(capacity: capacity)
        longMemory = longSpan.map { LongMemoryPool(span: $0, slotCount: MultiDayJourneys.longMemorySlots) }
    }

    /// How many recent elements are remembered.
    var count: Int {
        recent.count
    }

    /// Remembers `element`, created by a line at `instant`.
    mutating func add(_ element: Element, at instant: EpochNanoseconds) {
        recent.add(Remembered(element: element, instant: instant))
        longMemory?.add(element, at: instant)
    }

    /// A uniformly chosen recent element, of any age: for retries and duplicates.
    func randomElement(using rng: inout SeededRandom) -> Element? {
        recent.randomElement(using: &rng)?.element
    }

    /// The entity a line at `instant` refers to. Without the long memory, a uniformly chosen
    /// recent one. With it, `reach.longShare` of the time one up to `reach.maxAge` old from the
    /// long memory, otherwise one at most `MultiDayJourneys.recentHorizon` old; never one from
    /// after `instant` or older than `reach.maxAge`. Nil when there is none.
    func randomElement(referencedAt instant: EpochNanoseconds, reach: MemoryReach,
                       using rng: inout SeededRandom) -> Element? {
        guard let longMemory else { return randomElement(using: &rng) }
        if rng.chance(reach.longShare),
           let element = longMemory.randomElement(referencedAt: instant, maxAge: reach.maxAge, using: &rng) {
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
