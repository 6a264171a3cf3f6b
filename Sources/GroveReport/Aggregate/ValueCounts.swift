/// Line counts per distinct value, for keys whose lines nearly always carry one value (an open's
/// payload, a binding's email): a `SmallMap` keeps the first value inline, so the common case
/// allocates nothing, and many values under one key stay linear.
struct ValueCounts<Value: Hashable & Sendable>: Sendable {
    /// Lines by value, in the order the values first came; never empty once initialized.
    private var counts = SmallMap<Value, Int>()

    struct Entry: Sendable, Equatable {
        var value: Value
        var lines: Int
    }

    /// Only for building counts up from their entries.
    private init() {}

    init(_ value: Value) {
        add(value)
    }

    /// Counts rebuilt from `entries` (at least one).
    init(entries: [Entry]) {
        precondition(!entries.isEmpty, "value counts hold at least one value")
        for entry in entries { add(entry.value, lines: entry.lines) }
    }

    var total: Int { counts.entries.reduce(0) { $0 + $1.value } }

    /// Every distinct value with its line count, as a view rather than a new array.
    var entries: some RandomAccessCollection<Entry> {
        counts.entries.lazy.map { Entry(value: $0.key, lines: $0.value) }
    }

    func lines(of value: Value) -> Int {
        counts[value] ?? 0
    }

    mutating func add(_ value: Value, lines: Int = 1) {
        counts.update(value, default: 0) { $0 += lines }
    }

    mutating func merge(_ other: ValueCounts) {
        for entry in other.counts.entries { add(entry.key, lines: entry.value) }
    }

    func map<Other>(_ transform: (Value) -> Other) -> ValueCounts<Other> {
        var mapped = ValueCounts<Other>()
        for entry in counts.entries { mapped.add(transform(entry.key), lines: entry.value) }
        return mapped
    }
}
