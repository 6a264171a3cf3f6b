import Dispatch
import Foundation
import Testing
@testable import GroveReport

/// `Parallel.beside`: the work beside runs apart, and the foreground's own parallel work still
/// gets more than one thread (inside `Parallel.both` it would not: a `concurrentPerform` nested
/// in another runs its iterations one after another).
struct ParallelTests {
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2))
    func theForegroundBesideBackgroundWorkStillRunsItsLanesAtOnce() {
        var background = 0
        var met = [false, false]
        Parallel.beside {
            background = (1...1_000).reduce(0, +)
        } _: {
            // Each lane waits for the other's signal: lanes run one after another would time out.
            let arrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
            Parallel.forEach(&met, threads: 2) { lane, metOther in
                arrived[lane].signal()
                metOther = arrived[1 - lane].wait(timeout: .now() + 10) == .success
            }
        }
        #expect(background == 500_500)
        #expect(met == [true, true])
    }

    @Test func besideWaitsForTheBackgroundWork() {
        var finished = false
        Parallel.beside {
            Thread.sleep(forTimeInterval: 0.05)
            finished = true
        } _: {}
        #expect(finished)
    }
}
