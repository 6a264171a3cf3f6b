import Dispatch

/// Runs pieces of work on several threads and waits for all of them.
enum Parallel {
    /// The callers pass closures that mutate disjoint local state, which the compiler cannot see;
    /// this box vouches for that, and only for the duration of the call.
    private struct DisjointWork: @unchecked Sendable {
        let run: () -> Void
    }

    /// `DisjointWork` for one lane of `map`.
    private struct LaneWork: @unchecked Sendable {
        let run: (Int) -> Void
    }

    /// Runs `body` on every item, in place, on up to `threads` threads, and returns its results
    /// in item order. Each item is worked on by one thread, which may move it out (`take`) to own
    /// it uniquely. Items are dealt out in turn: partitions by hash are alike in size.
    static func map<Item, Result>(_ items: inout [Item], threads: Int, _ body: (inout Item) -> Result) -> [Result] {
        var results = [Result?](repeating: nil, count: items.count)
        let count = items.count
        let lanes = max(1, min(threads, count))
        items.withUnsafeMutableBufferPointer { itemsBuffer in
            results.withUnsafeMutableBufferPointer { resultsBuffer in
                let (items, results) = (itemsBuffer, resultsBuffer)
                withoutActuallyEscaping(body) { body in
                    let work = LaneWork { lane in
                        for index in stride(from: lane, to: count, by: lanes) { results[index] = body(&items[index]) }
                    }
                    guard lanes > 1 else { return work.run(0) }
                    DispatchQueue.concurrentPerform(iterations: lanes) { work.run($0) }
                }
            }
        }
        return results.map { $0! }
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
