/// Lines of one chunk waiting to be classified together (`LineClassifier`), with where each
/// was read. Their bytes are the splitter's, valid until it is next fed. Held inline: a batch is
/// filled and emptied every few lines, without the uniqueness checks of arrays.
struct LineBatch {
    /// One value a line of a batch, held inline. Eight lines: enough for their ids' cache misses
    /// to overlap, few enough for their parsed members to stay in the L1 cache.
    typealias PerLine<Element> = InlineArray<8, Element>
    static let capacity = PerLine<Bool>.count

    private struct Entry {
        var line: UnsafeBufferPointer<UInt8>
        var number: Int
        var offset: Int
    }

    private var entries = PerLine<Entry>(
        repeating: Entry(line: UnsafeBufferPointer(start: nil, count: 0), number: 0, offset: 0))
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == Self.capacity }

    mutating func append(_ line: UnsafeBufferPointer<UInt8>, number: Int, offset: Int) {
        entries[count] = Entry(line: line, number: number, offset: offset)
        count += 1
    }

    mutating func removeAll() {
        count = 0
    }

    func line(_ index: Int) -> UnsafeBufferPointer<UInt8> { entries[index].line }
    func number(_ index: Int) -> Int { entries[index].number }
    func offset(_ index: Int) -> Int { entries[index].offset }
}
