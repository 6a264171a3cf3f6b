import Foundation
import Synchronization

/// Hands blocks of whole lines from workers still reading a file to workers that have no file
/// left, so that the end of reading does not run on one core.
///
/// Files are dealt whole, and a file can only be inflated from its start, so a worker that
/// finishes early would wait for the others' last files. Instead it waits here; a reader that
/// sees it waiting cuts the lines of its next chunk into a block (`LineSplitter.cutBlock`) and
/// offers it, then inflates on while the helper parses. A reader never waits on the exchange:
/// when no helper takes the block, it classifies the block itself.
final class LineBlockExchange: @unchecked Sendable {
    private let condition = NSCondition()
    private var blocks: [LineBlock] = []
    /// Workers waiting in `take`, not yet promised a block.
    private var waiting = 0
    /// Workers reading files now, which may still offer blocks. Only workers that have started
    /// count: a helper must not wait for one that has not (the threads of a concurrent loop may
    /// run its iterations one after another).
    private var readers = 0
    /// `waiting` for a look without the lock: a reader asks after every chunk.
    private let waitingHint = Atomic<Int>(0)

    init() {}

    /// Whether a helper is probably waiting: worth cutting a block for.
    var helperWaiting: Bool { waitingHint.load(ordering: .relaxed) > 0 }

    /// Gives `block` to a waiting helper; false, keeping nothing, when none waits any more.
    func offer(_ block: LineBlock) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard waiting > 0 else { return false }
        waiting -= 1
        waitingHint.store(waiting, ordering: .relaxed)
        blocks.append(block)
        condition.broadcast()
        return true
    }

    /// A worker starts reading files.
    func readerStarted() {
        condition.lock()
        readers += 1
        condition.unlock()
    }

    /// A reader has read its last file.
    func readerFinished() {
        condition.lock()
        readers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next block for a worker without a file; nil once no reader is left to offer one.
    func take() -> LineBlock? {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        waitingHint.store(waiting, ordering: .relaxed)
        while blocks.isEmpty && readers > 0 { condition.wait() }
        if blocks.isEmpty {
            waiting -= 1
            waitingHint.store(waiting, ordering: .relaxed)
            return nil
        }
        return blocks.removeFirst()
    }
}
