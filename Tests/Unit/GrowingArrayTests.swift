import Testing
@testable import GroveReport

/// `GrowingArray`: an `Array`'s behaviour (order, value semantics, elements that own memory)
/// across the `realloc`s that grow it, small blocks and blocks with a mapping of their own alike.
struct GrowingArrayTests {
    /// An element that owns heap memory and counts its live copies, so that a leaked, doubly
    /// freed or lost element shows as a wrong count.
    final class Tracker: @unchecked Sendable {
        var live = 0
    }

    struct Owner {
        let tracker: Tracker
        var payload: [Int]
        let token: Token

        init(_ value: Int, _ tracker: Tracker) {
            self.tracker = tracker
            payload = [value, value + 1]
            token = Token(tracker)
        }
    }

    final class Token {
        let tracker: Tracker

        init(_ tracker: Tracker) {
            self.tracker = tracker
            tracker.live += 1
        }

        deinit { tracker.live -= 1 }
    }

    @Test func appendsKeepTheirOrderAcrossGrowthIntoMappedBlocks() {
        // 600,000 eight-byte elements: the last doublings are blocks of 1 MiB and more, which
        // glibc grows with `mremap` (`MemoryPolicy`).
        var array = GrowingArray<Int>()
        for value in 0..<600_000 { array.append(value * 3) }
        #expect(array.count == 600_000)
        #expect(array.capacity >= 600_000)
        #expect(array.elementsEqual((0..<600_000).lazy.map { $0 * 3 }))
        #expect(array.withUnsafeBufferPointer { $0.count == 600_000 && $0[599_999] == 1_799_997 })
    }

    @Test func bytesAppendedInRunsReadBackWhole() {
        var arena = GrowingArray<UInt8>()
        var expected: [UInt8] = []
        for length in 0..<2_000 {
            let run = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length) }
            run.withUnsafeBufferPointer { arena.append(contentsOf: $0) }
            expected += run
        }
        #expect(Array(arena) == expected)
        #expect(Array(arena[5..<9]) == Array(expected[5..<9]))
    }

    @Test func copiesAreIndependentValues() {
        var original = GrowingArray<Int>(0..<1_000)
        var copy = original
        copy[10] = -1
        copy.append(1_000)
        let snapshot = original
        original.withUnsafeMutableBufferPointer { $0[0] = 42 }
        #expect(snapshot[0] == 0)
        #expect(original.count == 1_000 && original[10] == 10 && original[0] == 42)
        #expect(copy.count == 1_001 && copy[10] == -1 && copy[0] == 0 && copy.last == 1_000)

        let empty = GrowingArray<Int>()
        var grown = empty
        grown.reserveCapacity(100)
        grown.append(7)
        #expect(empty.isEmpty && empty.capacity == 0)
        #expect(Array(grown) == [7])
    }

    @Test func elementsThatOwnMemoryAreMovedCopiedAndReleasedExactlyOnce() {
        let tracker = Tracker()
        do {
            var owners = GrowingArray<Owner>()
            for value in 0..<50_000 { owners.append(Owner(value, tracker)) }
            #expect(tracker.live == 50_000)
            var copy = owners
            copy[3].payload.append(99)
            #expect(tracker.live == 50_000, "a copy shares its elements, not the tokens' count")
            #expect(owners[3].payload == [3, 4] && copy[3].payload == [3, 4, 99])
            #expect(owners[49_999].payload == [49_999, 50_000])
            copy = GrowingArray()
            owners[0] = Owner(-5, tracker)
            #expect(tracker.live == 50_000)
            #expect(owners.map { $0.payload[0] }.reduce(0, +) == (1..<50_000).reduce(-5, +))
        }
        #expect(tracker.live == 0)
    }

    @Test func consumingHandsOverEachElementOnceInOrder() {
        let tracker = Tracker()
        do {
            var owners = GrowingArray<Owner>()
            for value in 0..<20_000 { owners.append(Owner(value, tracker)) }
            var seen: [Int] = []
            (consume owners).forEachConsumed { owner in
                seen.append(owner.payload[0])
                #expect(tracker.live == 20_000 - seen.count + 1, "each element is released as its turn ends")
            }
            #expect(seen == Array(0..<20_000))
            #expect(tracker.live == 0)

            var shared = GrowingArray<Owner>()
            for value in 0..<100 { shared.append(Owner(value, tracker)) }
            let other = shared
            var sum = 0
            shared.forEachConsumed { sum += $0.payload[1] }
            #expect(sum == (1...100).reduce(0, +))
            #expect(tracker.live == 100, "a shared storage keeps its elements for its other owner")
            #expect(other.count == 100 && other[99].payload == [99, 100])
        }
        #expect(tracker.live == 0)
    }

    @Test func consumingGivesBackPassedPagesAndStillReadsEveryElementAfterThem() {
        // 8 MiB of elements in a block of its own: the pass gives back its passed pages every
        // quarter MiB, and what lies beyond them is read intact, the last element included.
        var array = GrowingArray<Int>()
        for value in 0..<1_000_000 { array.append(value &* 7 &+ 1) }
        var expected = 0
        var mismatches = 0
        (consume array).forEachConsumed { value in
            if value != expected &* 7 &+ 1 { mismatches += 1 }
            expected += 1
        }
        #expect(mismatches == 0)
        #expect(expected == 1_000_000)
    }
}
