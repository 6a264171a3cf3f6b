/// Records keyed by one symbol: the symbol's number is the whole tag, so a tag match is the key,
/// and memory follows this store's keys, not the whole symbol table's.
struct SymbolIndex: RecordIndex {
    private var table = SlotTable()

    func position(of key: Symbol, in keys: GrowingArray<Symbol>) -> Int? {
        table.position(key.raw) { _ in true }
    }

    func prefetch(_ key: Symbol) {
        table.prefetch(key.raw)
    }

    mutating func insert(_ key: Symbol, at position: Int) {
        table.insert(key.raw, at: position)
    }

    mutating func reserve(_ count: Int) {
        table.reserve(count)
    }

    static func translated(_ key: Symbol, _ translation: SymbolTranslation) -> Symbol {
        translation[key]
    }
}
