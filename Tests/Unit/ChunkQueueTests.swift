import Testing
@testable import GroveReport

/// `ChunkQueue`: chunks come out as they went in, in order, and a chunk's buffer handed back
/// holds the next chunk.
struct ChunkQueueTests {
    @Test func chunksComeOutInOrderThenTheReadersOutcome() {
        let queue = ChunkQueue(capacity: 4)
        for chunk in [[1, 2, 3], [4], []] as [[UInt8]] { chunk.withUnsafeBufferPointer(queue.push) }
        queue.finish(ByteCounts(), nil)
        var popped: [[UInt8]] = []
        while case .success(let chunk) = queue.pop() { popped.append(chunk) }
        #expect(popped == [[1, 2, 3], [4], []])
    }

    @Test func aRecycledBufferHoldsTheNextChunkAlone() {
        let queue = ChunkQueue(capacity: 4)
        [UInt8](repeating: 7, count: 4096).withUnsafeBufferPointer(queue.push)
        guard case .success(let first) = queue.pop() else { Issue.record("no first chunk"); return }
        let buffer = first.withUnsafeBufferPointer { $0.baseAddress }
        queue.recycle(consume first)
        [UInt8]([9, 8]).withUnsafeBufferPointer(queue.push)
        guard case .success(let second) = queue.pop() else { Issue.record("no second chunk"); return }
        #expect(second == [9, 8])
        #expect(second.withUnsafeBufferPointer { $0.baseAddress } == buffer)
    }
}
