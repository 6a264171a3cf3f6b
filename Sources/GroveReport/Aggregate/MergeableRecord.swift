/// A per-key record of a partial state: two records of one key combine into one, in any order.
protocol MergeableRecord: Sendable {
    /// Folds in another record of the same key; `symbols` orders strings for tie-breaks.
    mutating func merge(_ other: Self, symbols: SymbolTable)
    /// The same record with its symbols mapped into another table.
    func translated(_ translation: SymbolTranslation) -> Self
}
