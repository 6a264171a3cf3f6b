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

    /// Transforms every input on up to `threads` threads and returns the outputs in input order.
    /// Each input is moved to the one thread that transforms it, so it is uniquely owned there
    /// (mutating it copies nothing). Inputs are dealt out in turn: partitions by hash are alike.
    static func map<Input, Output>(_ inputs: consuming [Input], threads: Int, _ transform: (consuming Input) -> Output) -> [Output] {
        var slots = inputs.map { Optional($0) }
        inputs = []
        var outputs = [Output?](repeating: nil, count: slots.count)
        let count = slots.count
        let lanes = max(1, min(threads, count))
        slots.withUnsafeMutableBufferPointer { slotsBuffer in
            outputs.withUnsafeMutableBufferPointer { outputsBuffer in
                let (slots, outputs) = (slotsBuffer, outputsBuffer)
                withoutActuallyEscaping(transform) { transform in
                    let work = LaneWork { lane in
                        for index in stride(from: lane, to: count, by: lanes) {
                            outputs[index] = transform(take(&slots[index], nil)!)
                        }
                    }
                    if lanes == 1 { work.run(0) } else { DispatchQueue.concurrentPerform(iterations: lanes) { work.run($0) } }
                }
            }
        }
        return outputs.map { $0! }
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
