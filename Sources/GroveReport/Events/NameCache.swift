/// The symbols of the short names a table interned last (campaigns, variants, app keys, slugs,
/// `utm_*` values): a handful of values that recur on most lines, found here without masking,
/// hashing or probing.
///
/// Direct-mapped by a name's length and first and last eight bytes, which tell names of at most
/// 16 bytes apart exactly; longer names are not kept. A table's symbols never change once given,
/// so an entry stays right for as long as the table lives.
struct NameCache: Sendable {
    private struct Entry: Sendable {
        var count = -1
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var symbol = Symbol(raw: 0)
    }

    private static let slotBits = 6
    private var entries = [Entry](repeating: Entry(), count: 1 << slotBits)

    /// The symbol remembered for `name`, or nil.
    func symbol(for name: UnsafeBufferPointer<UInt8>) -> Symbol? {
        guard name.count <= 16 else { return nil }
        let (head, tail) = Self.words(name)
        let entry = entries[Self.slot(head, tail, name.count)]
        return entry.count == name.count && entry.head == head && entry.tail == tail ? entry.symbol : nil
    }

    /// Remembers `symbol` as `name`'s, in place of whatever shared its slot.
    mutating func remember(_ name: UnsafeBufferPointer<UInt8>, as symbol: Symbol) {
        guard name.count <= 16 else { return }
        let (head, tail) = Self.words(name)
        entries[Self.slot(head, tail, name.count)] = Entry(count: name.count, head: head, tail: tail, symbol: symbol)
    }

    /// The first eight bytes and, for names longer than eight, the last eight, zero-padded.
    private static func words(_ name: UnsafeBufferPointer<UInt8>) -> (head: UInt64, tail: UInt64) {
        (SymbolTable.littleEndianWord(name), SymbolTable.tailWord(name))
    }

    private static func slot(_ head: UInt64, _ tail: UInt64, _ count: Int) -> Int {
        Int(truncatingIfNeeded: ((head ^ tail &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)) &* 0xFF51_AFD7_ED55_8CCD) >> (64 - UInt64(slotBits)))
    }
}
