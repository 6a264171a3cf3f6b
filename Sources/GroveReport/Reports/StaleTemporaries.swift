import Foundation

/// Finds and removes what runs that no longer exist left in an output directory: scratch
/// directories `.grove-report-<pid>-<n>` and temporaries `.<name>.<pid>.tmp` (docs/OUTPUTS.md, Writing atomically).
///
/// Called while holding the directory's lock, so no live run of this directory owns them; the pid
/// is still checked, so that a directory shared with an older, lock-less version is left alone
/// while that run lives.
enum StaleTemporaries {
    /// Removes the leftovers of dead processes in `directory`; returns the names removed.
    @discardableResult
    static func remove(in directory: String) -> [String] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in entries.sorted() {
            guard let pid = ownerPID(of: name), !isAlive(pid) else { continue }
            if (try? FileManager.default.removeItem(atPath: directory + "/" + name)) != nil { removed.append(name) }
        }
        return removed
    }

    /// The pid in a temporary's name, or nil when `name` is no temporary of grove-report.
    static func ownerPID(of name: String) -> pid_t? {
        let scratchPrefix = ".grove-report-"
        if name.hasPrefix(scratchPrefix) {
            let rest = name.dropFirst(scratchPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard rest.count == 2, UInt64(rest[1]) != nil else { return nil }
            return pid_t(rest[0])
        }
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let pid = pid_t(parts[parts.count - 1]) else { return nil }
        return pid
    }

    /// Whether a process with this pid exists; this process's own pid counts as dead, because a
    /// run holding the lock has made no temporary yet.
    private static func isAlive(_ pid: pid_t) -> Bool {
        guard pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
