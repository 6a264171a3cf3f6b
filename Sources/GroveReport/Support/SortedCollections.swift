/// Searches and edits of sorted collections that the state's indexes share.
extension RandomAccessCollection {
    /// The index of the first element past those for which `before` holds (the collection must
    /// hold them first): a binary search.
    func firstIndex(past before: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if before(self[middle]) {
                low = index(after: middle)
                count -= half + 1
            } else {
                count = half
            }
        }
        return low
    }
}

extension RandomAccessCollection where Element: Comparable {
    /// Whether this sorted collection holds `element`: a binary search.
    func contains(sorted element: Element) -> Bool {
        let index = firstIndex(past: { $0 < element })
        return index != endIndex && self[index] == element
    }
}

extension Array where Element: Equatable {
    /// Drops each element equal to the one before it (all repeats, when sorted).
    mutating func removeDuplicates() {
        guard !isEmpty else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}

extension Array where Element: Comparable {
    /// The elements of this sorted, distinct array that `other` (sorted, distinct) lacks, and
    /// the two merged, in one pass over both.
    func partitioned(against other: [Element]) -> (new: [Element], union: [Element]) {
        var new: [Element] = []
        var union: [Element] = []
        union.reserveCapacity(count + other.count)
        var mine = startIndex
        var theirs = other.startIndex
        while mine < endIndex || theirs < other.endIndex {
            if theirs == other.endIndex || (mine < endIndex && self[mine] < other[theirs]) {
                new.append(self[mine])
                union.append(self[mine])
                mine += 1
            } else if mine == endIndex || other[theirs] < self[mine] {
                union.append(other[theirs])
                theirs += 1
            } else {
                union.append(self[mine])
                mine += 1
                theirs += 1
            }
        }
        return (new, union)
    }
}

/// What the radix sort orders (`radixSort`): elements by an unsigned key whose order is theirs,
/// those of one key by `<` (an index entry's digest, then its target).
protocol RadixSortable: Comparable {
    var radixKey: UInt64 { get }
}

extension RadixSortable where Self: FixedWidthInteger {
    /// The value's bits, the sign bit flipped so that negatives come first.
    @inline(__always)
    var radixKey: UInt64 {
        let bits = UInt64(truncatingIfNeeded: self) & (UInt64.max >> (64 - Self.bitWidth))
        return Self.isSigned ? bits ^ 1 << (Self.bitWidth - 1) : bits
    }
}

extension Int64: RadixSortable {}
extension UInt64: RadixSortable {}
extension Int32: RadixSortable {}

extension Array where Element: RadixSortable {
    /// Sorts in place by radix, most significant byte first (American flag sort): a night sorts
    /// millions of digests, where the comparison sort spent a quarter of its loads. No buffer
    /// beside the array; a byte where every element agrees costs a count, not a pass.
    ///
    /// One pass first finds the highest byte in which any two elements differ, where sorting
    /// starts (a state's digests are 48 bits in 64: two counts saved), and leaves elements
    /// already in order as they are (a lookup's digests often come sorted).
    mutating func radixSort() {
        withUnsafeMutableBufferPointer { elements in
            guard let first = elements.first else { return }
            var differing: UInt64 = 0
            var (ordered, previous) = (true, first)
            for element in elements {
                differing |= element.radixKey ^ first.radixKey
                ordered = ordered && previous <= element
                previous = element
            }
            guard !ordered else { return }
            Self.radixSort(elements, byte: (63 - differing.leadingZeroBitCount) / 8)
        }
    }

    /// The values found at least `times` times, in order, one each: by sorting a copy, where a
    /// hash map of counts cost more than the values (a night asks this of every row it reads).
    func repeated(atLeast times: Int) -> [Element] {
        var sorted = self
        sorted.radixSort()
        var repeated: [Element] = []
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count, sorted[end] == sorted[start] { end += 1 }
            if end - start >= times { repeated.append(sorted[start]) }
            start = end
        }
        return repeated
    }

    /// Below this many elements, insertion sort is quicker than another pass.
    private static var smallBucket: Int { 48 }

    /// The element's byte `byte` (0 the least significant) of its key.
    @inline(__always)
    private static func digit(_ element: Element, byte: Int) -> Int {
        Int(truncatingIfNeeded: element.radixKey >> (byte * 8)) & 0xFF
    }

    private static func radixSort(_ elements: UnsafeMutableBufferPointer<Element>, byte: Int) {
        guard elements.count > smallBucket else {
            insertionSort(elements)
            return
        }
        // Past the last byte every key is one: equal integers, or index entries of one digest,
        // which the comparison sort orders (a unit with thousands of links must not cost a
        // quadratic insertion sort).
        guard byte >= 0 else {
            var elements = elements
            elements.sort()
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 512) { table in
            let ends = UnsafeMutableBufferPointer(rebasing: table[256...])
            let next = UnsafeMutableBufferPointer(rebasing: table[..<256])
            ends.initialize(repeating: 0)
            for element in elements { ends[digit(element, byte: byte)] += 1 }
            if ends.contains(elements.count) {
                radixSort(elements, byte: byte - 1)
                return
            }
            var start = 0
            for bucket in 0..<256 {
                next[bucket] = start
                start += ends[bucket]
                ends[bucket] = start
            }
            // Each element goes straight to its bucket's next free place, displacing the one there.
            for bucket in 0..<256 {
                while next[bucket] < ends[bucket] {
                    var element = elements[next[bucket]]
                    var home = digit(element, byte: byte)
                    while home != bucket {
                        swap(&element, &elements[next[home]])
                        next[home] += 1
                        home = digit(element, byte: byte)
                    }
                    elements[next[bucket]] = element
                    next[bucket] += 1
                }
            }
            var low = 0
            for bucket in 0..<256 {
                radixSort(UnsafeMutableBufferPointer(rebasing: elements[low..<ends[bucket]]), byte: byte - 1)
                low = ends[bucket]
            }
        }
    }

    private static func insertionSort(_ elements: UnsafeMutableBufferPointer<Element>) {
        guard elements.count > 1 else { return }
        for index in 1..<elements.count {
            let element = elements[index]
            var place = index
            while place > 0, elements[place - 1] > element {
                elements[place] = elements[place - 1]
                place -= 1
            }
            elements[place] = element
        }
    }
}
