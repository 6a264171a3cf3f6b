#if canImport(Glibc)
import Glibc
#endif

/// The C library's words for the current `errno` ("No space left on device"): the one place that
/// asks `strerror`, so every message names a failed system call the same way.
package func errnoDescription() -> String {
    String(cString: strerror(errno))
}
