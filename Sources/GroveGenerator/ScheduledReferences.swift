/// The long memory behind one kind of reference with `generate --days` (opens of a click,
/// bindings of a click, orders after a decision…): when an entity is created it is given, now
/// and then, a later reference due some hours to days on, and a referring line that reaches
/// back takes the entity due longest ago. So references spread over many entities instead of
/// piling on a few remembered ones (a click is bound once, not twenty times), and memory is
/// capped whatever the number of lines.
struct ScheduledReferences<Element> {
    private struct Scheduled {
        var due: EpochNanoseconds
        var created: EpochNanoseconds
        var element: Element
    }

    /// At most this many references wait at once; beyond it no more are scheduled.
    static var capacity: Int { 1 << 17 }

    /// A binary min-heap by `due`.
    private var heap: [Scheduled] = []
    let reach: MemoryReach

    init(reach: MemoryReach) {
        self.reach = reach
    }

    /// Gives `element`, created at `instant`, a later reference with `reach.scheduleShare`, due
    /// uniformly between the recent horizon and `reach.maxAge` after it.
    mutating func schedule(_ element: Element, at instant: EpochNanoseconds, using rng: inout SeededRandom) {
        guard rng.chance(reach.scheduleShare) else { return }
        let earliest = min(MultiDayJourneys.recentHorizon, reach.maxAge)
        let delay = earliest + EpochNanoseconds(rng.below(Int(reach.maxAge - earliest) + 1))
        guard heap.count < Self.capacity else { return }
        heap.append(Scheduled(due: instant + delay, created: instant, element: element))
        siftUp(heap.count - 1)
    }

    /// The entity due longest ago at `instant`, created at most `reach.maxAge` before it (older
    /// ones are dropped), or nil when none is due yet.
    mutating func takeDue(at instant: EpochNanoseconds) -> Element? {
        while let first = heap.first, first.due <= instant {
            removeFirst()
            if first.created <= instant && instant - first.created <= reach.maxAge {
                return first.element
            }
        }
        return nil
    }

    private mutating func removeFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var index = 0
        while true {
            let left = 2 * index + 1
            let right = left + 1
            var smallest = index
            if left < heap.count && heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count && heap[right].due < heap[smallest].due { smallest = right }
            if smallest == index { return }
            heap.swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            if heap[parent].due <= heap[index].due { return }
            heap.swapAt(parent, index)
            index = parent
        }
    }
}
