/// The symbols of the short names a table interned last (campaigns, variants, app keys, slugs,
/// `utm_*` values): a handful of values that recur on most lines, found here without masking,
/// hashing or probing.
///
/// Direct-mapped by a name's `ShortKey`, which tells names of at most 16 bytes apart exactly;
/// longer names are not kept. A table's symbols never change once given, so an entry stays right
/// for as long as the table lives.
///
/// 256 slots, for a few dozen names: with 64, the 36 names of the production-shaped logs shared
/// slots in about ten pairs, and a third of the calls missed (about 400 instructions each, the
/// mask, the hash and the probe); with 256, 1 in 40. Only the slots in use take cache lines.
struct NameCache: Sendable {
    private struct Entry: Sendable {
        var key = ShortKey.none
        var symbol = Symbol(raw: 0)
    }

    private static let slotBits = 8
    private var entries = [Entry](repeating: Entry(), count: 1 << slotBits)

    /// The symbol remembered for `name`, or nil. Inlined: on a hit it is all of `internName`.
    @inline(__always)
    func symbol(for name: UnsafeBufferPointer<UInt8>) -> Symbol? {
        guard name.count <= ShortKey.longest else { return nil }
        let key = ShortKey(name)
        let entry = entries[Self.slot(key)]
        return entry.key == key ? entry.symbol : nil
    }

    /// Remembers `symbol` as `name`'s, in place of whatever shared its slot.
    mutating func remember(_ name: UnsafeBufferPointer<UInt8>, as symbol: Symbol) {
        guard name.count <= ShortKey.longest else { return }
        let key = ShortKey(name)
        entries[Self.slot(key)] = Entry(key: key, symbol: symbol)
    }

    private static func slot(_ key: ShortKey) -> Int {
        let mixed = (key.head ^ key.tail &* Hashing.golden ^ UInt64(truncatingIfNeeded: key.count)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: mixed >> (64 - UInt64(slotBits)))
    }
}
