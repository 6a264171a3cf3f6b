#if canImport(Glibc)
import Glibc
#endif

/// `write(2)` until every byte is written, again when a signal interrupts it: the one loop of the
/// report files, standard output and the CI files, so a short write is never taken for success.
package enum WholeWrite {
    /// False when the system refused a write (`errno` says why); the descriptor stays open.
    package static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
