/// A sparse, time-slotted memory of entities over days: the span is cut into a fixed number of
/// slots and each slot keeps the first entity added in it. A later line can then refer back
/// hours or days — a binding to a click of last week — while memory stays the same however many
/// lines are generated, and no random draw is spent on remembering.
struct LongMemoryPool<Element> {
    private struct Slot {
        var number: Int64
        var instant: EpochNanoseconds
        var element: Element
    }

    private var slots: [Slot?]
    private let slotWidth: EpochNanoseconds

    /// A pool covering `span` with `slotCount` slots.
    init(span: EpochNanoseconds, slotCount: Int) {
        precondition(slotCount > 0 && span >= EpochNanoseconds(slotCount), "a pool needs slots at least 1 ns wide")
        slots = Array(repeating: nil, count: slotCount)
        slotWidth = span / EpochNanoseconds(slotCount)
    }

    /// Remembers `element`, created at `instant`, unless its slot already holds one of its time.
    mutating func add(_ element: Element, at instant: EpochNanoseconds) {
        let number = slotNumber(instant)
        let index = ringIndex(number)
        if let held = slots[index], held.number >= number {
            return
        }
        slots[index] = Slot(number: number, instant: instant, element: element)
    }

    /// An entity created at most `maxAge` before `instant` (and not after it), its age drawn
    /// uniformly; nil when the drawn slot is empty (no traffic then, or before the first line).
    func randomElement(referencedAt instant: EpochNanoseconds, maxAge: EpochNanoseconds,
                       using rng: inout SeededRandom) -> Element? {
        let reach = max(1, min(slots.count, Int(maxAge / slotWidth)))
        let number = slotNumber(instant) - Int64(rng.below(reach))
        guard let held = slots[ringIndex(number)], held.number == number,
              held.instant <= instant, instant - held.instant <= maxAge else { return nil }
        return held.element
    }

    private func slotNumber(_ instant: EpochNanoseconds) -> Int64 {
        instant / slotWidth
    }

    private func ringIndex(_ number: Int64) -> Int {
        Int(((number % Int64(slots.count)) + Int64(slots.count)) % Int64(slots.count))
    }
}
