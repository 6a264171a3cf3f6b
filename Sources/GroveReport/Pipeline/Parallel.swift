import Dispatch

/// Runs two pieces of work on two threads and waits for both.
enum Parallel {
    /// The callers pass closures that mutate disjoint local state, which the compiler cannot see;
    /// this box vouches for that, and only for the duration of the call.
    private struct DisjointWork: @unchecked Sendable {
        let run: () -> Void
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
