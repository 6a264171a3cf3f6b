import Foundation
import GroveReport

/// A progress line on stderr (phase, files, MB, events/s), redrawn twice a second, only when stderr is a terminal.
final class ProgressLine: Sendable {
    let counters = ProgressCounters()
    private let done = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the line when stderr is a terminal; nil otherwise (cron jobs and pipes stay silent).
    static func startIfTerminal() -> ProgressLine? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let line = ProgressLine()
        let started = DispatchTime.now()
        Thread.detachNewThread {
            while line.done.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
                let (files, bytes, events) = line.counters.snapshot
                let seconds = max(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9, 0.001)
                let text = "\rgrove-report: \(line.counters.phase.name) " + String(
                    format: "%d files, %.1f MB, %.0f events/s \u{1B}[K", files, Double(bytes) / 1e6,
                    Double(events) / seconds)
                FileHandle.standardError.write(Data(text.utf8))
            }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            line.finished.signal()
        }
        return line
    }

    func stop() {
        done.signal()
        finished.wait()
    }
}
