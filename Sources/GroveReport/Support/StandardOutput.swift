#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to standard output through `write(2)`, so a full disk or a closed pipe
/// becomes an `OutputError` (exit 74) instead of a trap or a silent loss.
package struct StandardOutput {
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 16

    package init() {
        buffer.reserveCapacity(Self.flushSize)
    }

    package mutating func write(_ bytes: [UInt8]) throws(OutputError) {
        buffer += bytes
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes everything buffered.
    package mutating func flush() throws(OutputError) {
        guard WholeWrite.write(buffer, to: STDOUT_FILENO) else { throw .cannotWrite(path: "standard output") }
        buffer.removeAll(keepingCapacity: true)
    }
}
