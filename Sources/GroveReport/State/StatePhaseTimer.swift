#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// `GROVE_REPORT_STATE_PHASES=1`: a stateful run writes how long each phase of its merge took
/// to stderr (`state phase NAME MS`), for the nights benchmark and anyone asking where a night's
/// time goes. Inert unless set.
struct StatePhaseTimer {
    private static let enabled = getenv("GROVE_REPORT_STATE_PHASES").map { String(cString: $0) == "1" } ?? false
    private var last = DispatchTime.now().uptimeNanoseconds

    /// Ends the phase named `name` and starts the next.
    mutating func lap(_ name: StaticString) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let milliseconds = Double(now - last) / 1e6
        let line = Array("state phase \(name) \((milliseconds * 10).rounded() / 10)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        last = now
    }
}
