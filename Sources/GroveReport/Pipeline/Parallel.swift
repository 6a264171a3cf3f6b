import Dispatch

/// Runs pieces of work on several threads and waits for all of them.
enum Parallel {
    /// The callers pass closures that mutate disjoint local state, which the compiler cannot see;
    /// this box vouches for that, and only for the duration of the call.
    private struct DisjointWork: @unchecked Sendable {
        let run: () -> Void
    }

    /// `DisjointWork` for one lane of `forEach`.
    private struct LaneWork: @unchecked Sendable {
        let run: (Int) -> Void
    }

    /// Runs `body` on every item and its index, in place, on up to `threads` threads. Each item
    /// is worked on by one thread, which may move it out (`take`) to own it uniquely. Items are
    /// dealt out in turn: partitions by hash are alike in size.
    static func forEach<Item>(_ items: inout [Item], threads: Int, _ body: (Int, inout Item) -> Void) {
        let count = items.count
        let lanes = max(1, min(threads, count))
        items.withUnsafeMutableBufferPointer { buffer in
            let items = buffer
            withoutActuallyEscaping(body) { body in
                let work = LaneWork { lane in
                    for index in stride(from: lane, to: count, by: lanes) { body(index, &items[index]) }
                }
                guard lanes > 1 else { return work.run(0) }
                DispatchQueue.concurrentPerform(iterations: lanes) { work.run($0) }
            }
        }
    }

    /// Runs `body` on `threads` ranges that split `0..<count` in order, one range a thread.
    static func forEachRange(of count: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        let lanes = max(1, min(threads, count))
        var ranges = (0..<lanes).map { lane in lane * count / lanes..<(lane + 1) * count / lanes }
        forEach(&ranges, threads: lanes) { _, range in body(range) }
    }

    /// Runs `background` on a thread of its own while `foreground` runs on the caller's, and
    /// waits for both. Unlike `both`, `foreground` may spread over every core itself: a
    /// `concurrentPerform` nested in another runs its iterations one after another. They must
    /// not touch the same mutable state.
    static func beside(_ background: () -> Void, _ foreground: () -> Void) {
        withoutActuallyEscaping(background) { background in
            let work = DisjointWork(run: background)
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) { work.run() }
            foreground()
            done.wait()
        }
    }

    /// Runs `first` and `second` concurrently. They must not touch the same mutable state.
    static func both(_ first: () -> Void, and second: () -> Void) {
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let work = [DisjointWork(run: first), DisjointWork(run: second)]
                DispatchQueue.concurrentPerform(iterations: 2) { work[$0].run() }
            }
        }
    }
}

/// Moves a value out of a variable, leaving `empty` behind, so that the moved value is uniquely
/// owned (mutating it copies nothing) and can be worked on apart from its old home.
func take<Value>(_ variable: inout Value, _ empty: Value) -> Value {
    let value = variable
    variable = empty
    return value
}
