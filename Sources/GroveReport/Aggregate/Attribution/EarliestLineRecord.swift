/// A record of every line with one key that keeps the earliest line and how many lines carried
/// each value, so that retries (later lines with the earliest's value) and conflicts (lines with
/// another value) can be told apart once the earliest is known, whatever order the lines arrive
/// in. `OpenRecord` keeps opens so (the value: the payload), `BindingRecord` bindings (the email).
protocol EarliestLineRecord: MergeableRecord {
    associatedtype Line
    associatedtype Value: Hashable & Sendable

    /// The earliest line so far, by `precedes`.
    var earliest: Line { get set }
    /// How many lines carried each value.
    var valueCounts: ValueCounts<Value> { get set }

    /// What a retry of `line` repeats.
    static func value(of line: Line) -> Value
    /// Whether `lhs` came before `rhs`: the smaller `ts`, ties broken by `symbols`' string order.
    static func precedes(_ lhs: Line, _ rhs: Line, _ symbols: SymbolTable) -> Bool
}

extension EarliestLineRecord {
    private var earliestLines: Int { valueCounts.lines(of: Self.value(of: earliest)) }

    /// Later lines with the earliest's value.
    var retries: Int { earliestLines - 1 }

    /// Lines with another value; the earliest stands.
    var conflicts: Int { valueCounts.total - earliestLines }

    mutating func add(_ line: Line, symbols: SymbolTable) {
        if Self.precedes(line, earliest, symbols) { earliest = line }
        valueCounts.add(Self.value(of: line))
    }

    mutating func merge(_ other: Self, symbols: SymbolTable) {
        if Self.precedes(other.earliest, earliest, symbols) { earliest = other.earliest }
        valueCounts.merge(other.valueCounts)
    }
}
