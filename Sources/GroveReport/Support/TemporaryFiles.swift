import Foundation
import Synchronization

/// The temporary files and scratch directories this process has made and not yet renamed or
/// removed, so that SIGINT or SIGTERM can remove them before the process exits (docs/OUTPUTS.md, Writing atomically).
///
/// Register a path before creating it: the signal handler holds the registry's lock until the
/// process ends, so nothing registered later can be created after the clean-up.
enum TemporaryFiles {
    private static let registered = Mutex<[String: Bool]>([:])

    /// Records `path` (a directory when `directory`) as this run's, before it is created.
    static func register(_ path: String, directory: Bool = false) {
        registered.withLock { $0[path] = directory }
    }

    /// Forgets `path`: it was renamed into place or removed.
    static func release(_ path: String) {
        registered.withLock { _ = $0.removeValue(forKey: path) }
    }

    /// Removes `path` (recursively when a directory) and forgets it.
    static func remove(_ path: String) {
        registered.withLock { paths in
            removeFromDisk(path, directory: paths.removeValue(forKey: path) ?? false)
        }
    }

    /// Removes every registered path and ends the process with `status`, holding the lock so no
    /// new temporary appears meanwhile.
    static func removeAllAndExit(_ status: Int32) -> Never {
        registered.withLock { paths -> Never in
            for (path, directory) in paths { removeFromDisk(path, directory: directory) }
            _exit(status)
        }
    }

    private static func removeFromDisk(_ path: String, directory: Bool) {
        guard directory else {
            unlink(path)
            return
        }
        // A worker may still be adding a spool file: try a few times.
        for _ in 0..<5 {
            try? FileManager.default.removeItem(atPath: path)
            if access(path, F_OK) != 0 { return }
        }
    }
}
