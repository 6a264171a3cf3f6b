/// Line counts per distinct value, for keys whose lines nearly always carry one value (an open's
/// payload, a binding's email): the first value is stored inline, so the common case allocates nothing.
struct ValueCounts<Value: Equatable & Sendable>: Sendable, Equatable {
    private var first: Value
    private var firstLines = 1
    private var others: [Entry] = []

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
        others = Array(entries.dropFirst())
    }

    var total: Int { others.reduce(firstLines) { $0 + $1.lines } }

    /// Every distinct value with its line count.
    var entries: [Entry] { [Entry(value: first, lines: firstLines)] + others }

    func lines(of value: Value) -> Int {
        if first == value { return firstLines }
        return others.first { $0.value == value }?.lines ?? 0
    }

    mutating func add(_ value: Value, lines: Int = 1) {
        if first == value {
            firstLines += lines
        } else if let index = others.firstIndex(where: { $0.value == value }) {
            others[index].lines += lines
        } else {
            others.append(Entry(value: value, lines: lines))
        }
    }

    mutating func merge(_ other: ValueCounts) {
        add(other.first, lines: other.firstLines)
        for entry in other.others { add(entry.value, lines: entry.lines) }
    }

    func map<Other>(_ transform: (Value) -> Other) -> ValueCounts<Other> {
        var result = ValueCounts<Other>(transform(first))
        result.firstLines = firstLines
        result.others = others.map { .init(value: transform($0.value), lines: $0.lines) }
        return result
    }
}
