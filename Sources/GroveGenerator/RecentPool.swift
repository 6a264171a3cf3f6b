/// A fixed-size ring of recently created entities (click, open, install, order numbers…), so that
/// later lines can refer back to them — a duplicate click, an open of a known click, an order by
/// an exposed install — while memory stays the same however many lines are generated.
struct RecentPool<Element> {
    private var storage: [Element] = []
    private var nextSlot = 0
    private let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "a pool needs room for at least one element")
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    /// How many elements are remembered (at most the capacity).
    var count: Int {
        storage.count
    }

    /// Remembers `element`, forgetting the oldest one when the pool is full.
    mutating func add(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[nextSlot] = element
        }
        nextSlot = (nextSlot + 1) % capacity
    }

    /// A uniformly chosen remembered element, or nil before anything was added.
    func randomElement(using rng: inout SeededRandom) -> Element? {
        storage.isEmpty ? nil : storage[rng.below(storage.count)]
    }

    /// The element added `offset` additions ago (0 is the newest); `offset` must be below `count`.
    func element(addedBefore offset: Int) -> Element {
        precondition(offset >= 0 && offset < storage.count, "no element was added that long ago")
        return storage[((nextSlot - 1 - offset) % capacity + capacity) % capacity]
    }
}
