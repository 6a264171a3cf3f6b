import CShims

/// The open addressing both record indexes share: a power-of-two table of 64-bit slots
/// `tag << 32 | (position + 1)`, 0 marking an empty one, probed linearly and kept at most three
/// quarters full: passing a slot of another tag reads no key, and neighbours share a cache line.
/// A slot's start follows from its 32-bit tag alone, so the table grows without the keys.
struct SlotTable: Sendable {
    private var slots = [UInt64](repeating: 0, count: 16)
    private var count = 0

    /// Where probing for `tag` starts in a table of `size` slots: the top bits of a multiplicative
    /// hash. The keys of one partition share the low bits of `partitionHash >> 32` (PartitionKey);
    /// the top bits of the product spread them over the whole table all the same.
    @inline(__always)
    private static func start(_ tag: UInt32, _ size: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(tag) &* 0x9E37_79B9_7F4A_7C15) >> (64 - size.trailingZeroBitCount))
    }

    /// The position of the first entry tagged `tag` that `matches` accepts: an index whose tag is
    /// not the whole key checks the key there.
    @inline(__always)
    func position(_ tag: UInt32, where matches: (Int) -> Bool) -> Int? {
        let mask = slots.count - 1
        var index = Self.start(tag, slots.count)
        while true {
            let slot = slots[index]
            if slot == 0 { return nil }
            if slot >> 32 == UInt64(tag) {
                let position = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF) - 1
                if matches(position) { return position }
            }
            index = (index + 1) & mask
        }
    }

    /// Asks for the cache line where probing for `tag` starts, ahead of a lookup or insert.
    func prefetch(_ tag: UInt32) {
        slots.withUnsafeBufferPointer { grove_prefetch($0.baseAddress! + Self.start(tag, $0.count)) }
    }

    /// Adds an entry; positions fit in 32 bits (the conversion traps beyond).
    mutating func insert(_ tag: UInt32, at position: Int) {
        if Self.overloaded(count + 1, slots: slots.count) { grow(to: slots.count * 2) }
        Self.place(UInt64(tag) << 32 | UInt64(UInt32(position + 1)), in: &slots)
        count += 1
    }

    /// Makes room for `count` entries in all.
    mutating func reserve(_ count: Int) {
        var size = slots.count
        while Self.overloaded(count, slots: size) { size *= 2 }
        if size > slots.count { grow(to: size) }
    }

    private static func overloaded(_ entries: Int, slots: Int) -> Bool {
        entries * 4 > slots * 3
    }

    private mutating func grow(to size: Int) {
        var larger = [UInt64](repeating: 0, count: size)
        for slot in slots where slot != 0 { Self.place(slot, in: &larger) }
        slots = larger
    }

    private static func place(_ slot: UInt64, in table: inout [UInt64]) {
        let mask = table.count - 1
        var index = start(UInt32(truncatingIfNeeded: slot >> 32), table.count)
        while table[index] != 0 { index = (index + 1) & mask }
        table[index] = slot
    }
}
