import Foundation

/// Turns SIGINT and SIGTERM into a clean stop: this run's temporaries are removed and the process
/// exits 130 or 143 (128 + the signal), so a stopped run leaves nothing behind (docs/OUTPUTS.md, Writing atomically).
///
/// The signals are blocked in every thread and taken by one thread with `sigwait`, which can do
/// ordinary work (a signal handler could not safely touch the registry).
package enum StopSignals {
    /// Call first thing in `main`, before any other thread exists, so every thread inherits the
    /// blocked mask.
    package static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // A closed pipe on stdout is an output failure reported by `write`, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        let blocked = signals
        let waiter = Thread {
            var received: Int32 = 0
            var waitFor = blocked
            while sigwait(&waitFor, &received) != 0 {}
            TemporaryFiles.removeAllAndExit(128 + received)
        }
        waiter.start()
    }
}
