#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Fault injection for the reliability tests, read from the environment once; inert unless set.
enum TestHooks {
    /// `GROVE_REPORT_TEST_KILL_AFTER_RENAMES=N`: SIGKILL this process right after its N-th rename
    /// of a report into place, to test that a set mixed from two runs is detectable.
    private static let killAfterRenames: Int? = environmentNumber("GROVE_REPORT_TEST_KILL_AFTER_RENAMES")
    private static let renames = Atomic<Int>(0)

    /// Counts one rename into place; may kill the process.
    static func renamedIntoPlace() {
        guard let limit = killAfterRenames else { return }
        if renames.add(1, ordering: .relaxed).newValue >= limit { kill(getpid(), SIGKILL) }
    }

    /// `GROVE_REPORT_TEST_KILL_AFTER_COMMIT=1`: SIGKILL this process right after a `run --state`
    /// committed, before its reports, to test that the next run completes the night.
    private static let killAfterCommit = environmentNumber("GROVE_REPORT_TEST_KILL_AFTER_COMMIT") == 1

    /// Marks a state's commit; may kill the process.
    static func committed() {
        if killAfterCommit { kill(getpid(), SIGKILL) }
    }

    private static func environmentNumber(_ name: String) -> Int? {
        getenv(name).flatMap { Int(String(cString: $0)) }
    }
}
