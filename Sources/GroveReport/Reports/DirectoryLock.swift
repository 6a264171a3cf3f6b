#if canImport(Glibc)
import Glibc
#endif

/// One writer per output directory: an exclusive `flock` on the directory itself, held for the
/// life of this value. A lock on the directory needs no lock file, so a run that finds the
/// directory busy changes nothing in it; the kernel drops the lock when a run dies.
final class DirectoryLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, retrying for up to `waitSeconds`; `busy` when another run keeps it.
    init(path: String, waitSeconds: Double) throws(OutputError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: path) }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(descriptor)
                errno = failure
                throw .cannotWrite(path: path)
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let waited = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            guard waited < waitSeconds else {
                close(descriptor)
                throw .busy(path: path, waitedSeconds: waitSeconds)
            }
            usleep(UInt32(min(50_000, max(1_000, (waitSeconds - waited) * 1e6))))
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
