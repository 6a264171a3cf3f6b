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

    @Test func removingDuplicatesKeepsOneOfEach() {
        var values: [Int64] = [1, 1, 2, 3, 3, 3, 7]
        values.removeDuplicates()
        #expect(values == [1, 2, 3, 7])
        var empty: [Int64] = []
        empty.removeDuplicates()
        #expect(empty.isEmpty)
    }
}
