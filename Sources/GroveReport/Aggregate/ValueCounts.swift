/// Line counts per distinct value, for keys whose lines nearly always carry one value (an open's
/// payload, a binding's email): a small array beats a dictionary there.
struct ValueCounts<Value: Equatable & Sendable>: Sendable, Equatable {
    private(set) var entries: [(value: Value, lines: Int)]

    init(_ value: Value) {
        entries = [(value, 1)]
    }

    var total: Int { entries.reduce(0) { $0 + $1.lines } }

    func lines(of value: Value) -> Int {
        entries.first { $0.value == value }?.lines ?? 0
    }

    mutating func merge(_ other: ValueCounts) {
        for entry in other.entries {
            if let index = entries.firstIndex(where: { $0.value == entry.value }) {
                entries[index].lines += entry.lines
            } else {
                entries.append(entry)
            }
        }
    }

    static func == (lhs: ValueCounts, rhs: ValueCounts) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.value == $1.value && $0.lines == $1.lines }
    }
}
