import Testing
@testable import GroveGenerator
@testable import GroveReport

/// A night's rows in one buffer (`StateRowBatch`): sorted by digest as a stable sort would, and
/// merged across batches in digest order, each row read back as it was appended.
struct StateRowBatchTests {
    /// A batch of rows under `digests`, each keyed by its position, its value one byte.
    static func batch(_ digests: [Int64]) -> StateRowBatch {
        var batch = StateRowBatch()
        for (position, digest) in digests.enumerated() {
            let row = Array(String(position).utf8) + [0xFF]
            batch.append(row, keyCount: row.count - 1, keyDigest: digest)
        }
        return batch
    }

    /// Digests of both signs, 48-bit and full width, with many ties: the order of a stable sort.
    @Test func sortingByDigestKeepsTiesInTheirOrder() {
        var random = SeededRandom(seed: 5)
        for count in [0, 1, 2, 300, 5_000] {
            let digests = (0..<count).map { _ -> Int64 in
                switch Int.random(in: 0..<3, using: &random) {
                case 0: Int64.random(in: -4...4, using: &random)
                case 1: Int64.random(in: -(1 << 47)..<(1 << 47), using: &random)
                default: Int64.random(in: Int64.min...Int64.max, using: &random)
                }
            }
            var batch = Self.batch(digests)
            batch.sortByDigest()
            let expected = digests.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
            var found: [(Int64, String)] = []
            batch.forEach { digest, key, _ in found.append((digest, String(decoding: key, as: UTF8.self))) }
            #expect(found.map { $0.0 } == expected.map(\.element))
            #expect(found.map { $0.1 } == expected.map { String($0.offset) })
        }
    }

    /// Two sorted batches read as one run: digest order, a tie to the earlier batch, and each
    /// row's key and value as appended.
    @Test func batchesMergeInDigestOrderATieToTheEarlierOne() {
        var first = Self.batch([5, -3, 9, 5])
        var second = Self.batch([5, 0, -7])
        first.sortByDigest()
        second.sortByDigest()
        var found: [(Int64, String, [UInt8])] = []
        StateRowBatch.forEachInDigestOrder([first, second]) { digest, key, value in
            found.append((digest, String(decoding: key, as: UTF8.self), Array(value)))
        }
        #expect(found.map { $0.0 } == [-7, -3, 0, 5, 5, 5, 9])
        #expect(found.map { $0.1 } == ["2", "1", "1", "0", "3", "0", "2"])
        #expect(found.allSatisfy { $0.2 == [0xFF] })
    }
}
