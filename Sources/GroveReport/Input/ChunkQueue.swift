import Foundation

/// A bounded queue of decompressed chunks between a reading thread and a parsing thread.
///
/// The reader blocks when `capacity` chunks wait, so memory stays at a few chunks whatever the
/// input size; `finish` hands over the reader's byte counts and fault once every chunk is queued.
/// A chunk parsed is handed back (`recycle`) and the next one copied into its buffer: a chunk is
/// as large as glibc's mmap threshold, so a new buffer each was fresh pages for the kernel to
/// fault in and clear (a quarter of the page clearing of a 2M-line night).
final class ChunkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    /// Buffers of chunks parsed, for the next chunks: at most as many as can be in flight.
    private var spares: [[UInt8]] = []
    private var outcome: (counts: ByteCounts, error: InputError?)?
    private let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// Queues a copy of `chunk`, waiting while the queue is full.
    func push(_ chunk: UnsafeBufferPointer<UInt8>) {
        condition.lock()
        var copy = spares.popLast() ?? []
        condition.unlock()
        copy.removeAll(keepingCapacity: true)
        copy.append(contentsOf: chunk)
        condition.lock()
        while chunks.count >= capacity { condition.wait() }
        chunks.append(copy)
        condition.broadcast()
        condition.unlock()
    }

    /// Takes back the buffer of a chunk `pop` gave, once parsed, for a later chunk.
    func recycle(_ chunk: consuming [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        if spares.count <= capacity { spares.append(chunk) }
    }

    /// Marks the end of the input.
    func finish(_ counts: ByteCounts, _ error: InputError?) {
        condition.lock()
        outcome = (counts, error)
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, or the reader's outcome once the queue is drained.
    func pop() -> Result<[UInt8], Ended> {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && outcome == nil { condition.wait() }
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            condition.broadcast()
            return .success(chunk)
        }
        return .failure(Ended(counts: outcome!.counts, error: outcome!.error))
    }

    /// The end of the input: the reader's byte counts and fault.
    struct Ended: Error {
        var counts: ByteCounts
        var error: InputError?
    }
}
