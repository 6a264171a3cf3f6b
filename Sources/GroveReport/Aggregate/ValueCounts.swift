/// Line counts per distinct value, for keys whose lines nearly always carry one value (an open's
/// payload, a binding's email): the first value is stored inline, so the common case allocates
/// nothing, and the others in a `SmallMap`, so many values under one key stay linear.
struct ValueCounts<Value: Hashable & Sendable>: Sendable {
    private var first: Value
    private var firstLines = 1
    private var others = SmallMap<Value, Int>()

    struct Entry: Sendable, Equatable {
        var value: Value
        var lines: Int
    }

    init(_ value: Value) {
        first = value
    }

    /// Counts rebuilt from `entries` (at least one).
    init(entries: [Entry]) {
        first = entries[0].value
        firstLines = entries[0].lines
        for entry in entries.dropFirst() { add(entry.value, lines: entry.lines) }
    }

    var total: Int { others.entries.reduce(firstLines) { $0 + $1.value } }

    /// Every distinct value with its line count.
    var entries: [Entry] { [Entry(value: first, lines: firstLines)] + others.entries.map { Entry(value: $0.key, lines: $0.value) } }

    func lines(of value: Value) -> Int {
        value == first ? firstLines : others[value] ?? 0
    }

    mutating func add(_ value: Value, lines: Int = 1) {
        if value == first {
            firstLines += lines
        } else {
            others.update(value, default: 0) { $0 += lines }
        }
    }

    mutating func merge(_ other: ValueCounts) {
        for entry in other.entries { add(entry.value, lines: entry.lines) }
    }

    func map<Other>(_ transform: (Value) -> Other) -> ValueCounts<Other> {
        ValueCounts<Other>(entries: entries.map { .init(value: transform($0.value), lines: $0.lines) })
    }
}
