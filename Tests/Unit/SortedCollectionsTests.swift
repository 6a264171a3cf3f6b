import Testing
@testable import GroveReport

/// Sorted-array helpers (`Support/SortedCollections.swift`) against what sets compute.
struct SortedCollectionsTests {
    @Test func partitioningAgainstAnotherSortedArrayGivesTheNewElementsAndTheUnion() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var mine = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in Int64.random(in: 0..<60, using: &generator) }.sorted()
            var theirs = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in Int64.random(in: 0..<60, using: &generator) }.sorted()
            mine.removeDuplicates()
            theirs.removeDuplicates()
            let (new, union) = mine.partitioned(against: theirs)
            #expect(new == Set(mine).subtracting(theirs).sorted())
            #expect(union == Set(mine).union(theirs).sorted())
        }
    }

    @Test func aSortedArrayContainsWhatASetOfItContains() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let values = (0..<Int.random(in: 0..<20, using: &generator)).map { _ in Int64.random(in: -30..<30, using: &generator) }.sorted()
            for probe in Int64(-32)..<32 {
                #expect(values.contains(sorted: probe) == Set(values).contains(probe))
            }
        }
    }

    @Test func repeatedValuesAreThoseCountedAtLeastSoOften() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let values = (0..<Int.random(in: 0..<60, using: &generator)).map { _ in Int64.random(in: -8..<8, using: &generator) }
            for times in 1...4 {
                let counts = Dictionary(values.map { ($0, 1) }, uniquingKeysWith: +)
                #expect(values.repeated(atLeast: times) == counts.filter { $0.value >= times }.keys.sorted())
            }
        }
    }

    @Test func removingDuplicatesKeepsOneOfEach() {
        var values: [Int64] = [1, 1, 2, 3, 3, 3, 7]
        values.removeDuplicates()
        #expect(values == [1, 2, 3, 7])
        var empty: [Int64] = []
        empty.removeDuplicates()
        #expect(empty.isEmpty)
    }

    /// The radix sort against the comparison sort: signed and unsigned, repeats, every byte
    /// agreeing but one (a digest's sign extension), digests of fewer bytes than their type
    /// (sorting starts at the highest byte that differs), input in order but for its last
    /// element, a narrower type, buckets small and large.
    @Test func radixSortingOrdersAsTheComparisonSortDoes() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 47, 48, 49, 300, 5_000, 70_000] {
            var digests = (0..<size).map { _ in Int64.random(in: -(1 << 47)..<(1 << 47), using: &generator) }
            var repeats = (0..<size).map { _ in Int64.random(in: -3...3, using: &generator) }
            var extremes = (0..<size).map { _ in [Int64.min, .max, 0, -1, 1].randomElement(using: &generator)! }
            var unsigned = (0..<size).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
            var narrow = (0..<size).map { _ in Int64.random(in: 0..<(1 << 40), using: &generator) }
            var lastOutOfOrder = (0..<size).map { Int64($0) * 3 }
            if size > 1 { lastOutOfOrder[size - 1] = 1 }
            var small = (0..<size).map { _ in Int32.random(in: .min ... .max, using: &generator) }
            let expected = (digests.sorted(), repeats.sorted(), extremes.sorted(), unsigned.sorted())
            let expectedToo = (narrow.sorted(), lastOutOfOrder.sorted(), small.sorted())
            digests.radixSort()
            repeats.radixSort()
            extremes.radixSort()
            unsigned.radixSort()
            narrow.radixSort()
            lastOutOfOrder.radixSort()
            small.radixSort()
            #expect(digests == expected.0, "size \(size)")
            #expect(repeats == expected.1, "size \(size)")
            #expect(extremes == expected.2, "size \(size)")
            #expect(unsigned == expected.3, "size \(size)")
            #expect(narrow == expectedToo.0, "size \(size)")
            #expect(lastOutOfOrder == expectedToo.1, "size \(size)")
            #expect(small == expectedToo.2, "size \(size)")
        }
    }

    /// Index entries sort by their digest's radix and, within one digest, by target: a
    /// digest's entries past the last byte (a unit with hundreds of links) in target order.
    @Test func indexEntriesSortByDigestThenTarget() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 2, 49, 5_000] {
            var entries = (0..<size).map { _ in
                StateIndexEntry(hash: Int64.random(in: -(1 << 47)..<(1 << 47), using: &generator), target: Int64.random(in: 0..<1_000, using: &generator))
            }
            // One digest with many targets, one with two, in reverse order.
            entries += (0..<300).map { StateIndexEntry(hash: 42, target: Int64(300 - $0)) }
            entries += [StateIndexEntry(hash: -7, target: 2), StateIndexEntry(hash: -7, target: 1)]
            entries.shuffle(using: &generator)
            let expected = entries.sorted()
            entries.radixSort()
            #expect(entries == expected, "size \(size)")
        }
    }
}
