/// The one open-addressing table of the engine, under the symbol shards (`SymbolShard`) and the
/// record indexes (`SymbolIndex`, `HashedIndex`): a table of 64-bit slots
/// `tag << 32 | (position + 1)`, 0 marking an empty one, probed linearly and kept at most four
/// fifths full. Passing a slot of another tag reads no key, and neighbours share a cache line;
/// a slot's start follows from its 32-bit tag alone, so the table grows without the keys.
///
/// Any size, not only powers of two: a start is the tag's spread bits scaled to the size, and a
/// full table grows by a quarter. Doubling at 3/4 left a table between 3/8 and 3/4 full (at 10M
/// events the symbol shards were at 39 %, 21 bytes an entry); growing by a quarter keeps it
/// between 64 % and 80 %, about 11 bytes an entry, and a merge reserves exactly. The tags keep
/// the longer runs of a fuller table cheap: a probe passes a slot of another tag without
/// reading any key, eight slots a cache line.
///
/// The table holds positions, not keys: its owner keeps the keys (a symbol shard's bytes, a
/// store's key array) and confirms a tag match on them through `matches`, unless the tag is the
/// whole key.
struct SlotTable: Sendable {
    private var slots = [UInt64](repeating: 0, count: 16)
    /// The number of entries.
    private(set) var count = 0

    init() {}

    /// Where probing for `tag` starts in a table of `size` slots: the top 32 bits of a
    /// multiplicative hash (`Hashing.golden`), scaled to the size (`spread × size / 2^32`). The
    /// keys of one partition share the low bits of their tags (`PartitionKey`); the top bits of
    /// the product spread them over the whole table all the same.
    @inline(__always)
    private static func start(_ tag: UInt32, _ size: Int) -> Int {
        let spread = (UInt64(tag) &* Hashing.golden) >> 32
        return Int(truncatingIfNeeded: (spread &* UInt64(truncatingIfNeeded: size)) >> 32)
    }

    /// The slot after `index` in a table of `size`, wrapping at the end.
    @inline(__always)
    private static func next(_ index: Int, _ size: Int) -> Int {
        index + 1 == size ? 0 : index + 1
    }

    /// The size a full table of `size` slots grows to.
    private static func grown(_ size: Int) -> Int {
        size + size / 4
    }

    /// The position of the first entry tagged `tag` that `matches` accepts.
    @inline(__always)
    func position(_ tag: UInt32, where matches: (Int) -> Bool) -> Int? {
        walk(tag, matches).position
    }

    /// Where a lookup ended: the position of the entry found, or nil and the empty slot where
    /// the tag belongs, for `insert(_:at:after:)`.
    struct Probe {
        fileprivate let index: Int
        let position: Int?
    }

    /// The first entry tagged `tag` that `matches` accepts, or where one would go: a lookup that
    /// may insert probes once.
    @inline(__always)
    func probe(_ tag: UInt32, where matches: (Int) -> Bool) -> Probe {
        let (index, position) = walk(tag, matches)
        return Probe(index: index, position: position)
    }

    /// Adds an entry in the empty slot `probe` ended at; the table must not have changed since.
    @inline(__always)
    mutating func insert(_ tag: UInt32, at position: Int, after probe: Probe) {
        precondition(probe.position == nil, "a probe that found its entry has no slot to fill")
        slots[probe.index] = Self.slot(tag, position)
        count += 1
        if Self.overloaded(count, slots: slots.count) { grow(to: Self.grown(slots.count)) }
    }

    /// Asks for the cache line where probing for `tag` starts, ahead of a lookup or insert.
    func prefetch(_ tag: UInt32) {
        slots.withUnsafeBufferPointer { $0.prefetch(Self.start(tag, $0.count)) }
    }

    /// Adds an entry; positions fit in 32 bits (the conversion traps beyond).
    mutating func insert(_ tag: UInt32, at position: Int) {
        if Self.overloaded(count + 1, slots: slots.count) { grow(to: Self.grown(slots.count)) }
        slots.withUnsafeMutableBufferPointer { Self.place(Self.slot(tag, position), in: $0) }
        count += 1
    }

    /// Makes room for `count` entries in all.
    mutating func reserve(_ count: Int) {
        guard Self.overloaded(count, slots: slots.count) else { return }
        grow(to: (count * 5 + 3) / 4)
    }

    /// The memory the slots take, in bytes.
    var byteCount: Int { slots.count * MemoryLayout<UInt64>.stride }

    /// Walks the slots of `tag` from its start: the slot of the first entry tagged `tag` that
    /// `matches` accepts, with its position, or the empty slot that ends the walk.
    @inline(__always)
    private func walk(_ tag: UInt32, _ matches: (Int) -> Bool) -> (index: Int, position: Int?) {
        slots.withUnsafeBufferPointer { slots in
            let size = slots.count
            var index = Self.start(tag, size)
            while true {
                let slot = slots[index]
                if slot == 0 { return (index, nil) }
                if slot >> 32 == UInt64(tag) {
                    let position = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                    if matches(position) { return (index, position) }
                }
                index = Self.next(index, size)
            }
        }
    }

    @inline(__always)
    private static func slot(_ tag: UInt32, _ position: Int) -> UInt64 {
        UInt64(tag) << 32 | UInt64(UInt32(position + 1))
    }

    private static func overloaded(_ entries: Int, slots: Int) -> Bool {
        entries * 5 > slots * 4
    }

    private mutating func grow(to size: Int) {
        precondition(size <= 1 << 32, "a slot table's slots are found by 32 tag bits")
        var larger = [UInt64](repeating: 0, count: size)
        // One pointer each for the whole pass: no uniqueness check or bounds check a slot.
        slots.withUnsafeBufferPointer { slots in
            larger.withUnsafeMutableBufferPointer { larger in
                for slot in slots where slot != 0 { Self.place(slot, in: larger) }
            }
        }
        slots = larger
    }

    @inline(__always)
    private static func place(_ slot: UInt64, in table: UnsafeMutableBufferPointer<UInt64>) {
        let size = table.count
        var index = start(UInt32(truncatingIfNeeded: slot >> 32), size)
        while table[index] != 0 { index = next(index, size) }
        table[index] = slot
    }
}
