import CShims

/// How the process asks glibc's allocator for memory.
///
/// The keyed stores and symbol tables grow by doubling arrays of tens of megabytes. glibc's default
/// mmap threshold rises to the size of every large block freed (up to 32 MiB), after which such
/// arrays come from the heap, and a freed array leaves a hole that the next, larger one cannot
/// reuse: at 10M events that fragmentation was about 300 MiB of peak RSS. A fixed threshold keeps
/// every block of 128 KiB or more in its own mapping, returned to the system when freed, and grown
/// by `realloc` with `mremap`, its pages moved rather than copied (`GrowingArray`). At 1 MiB the
/// hundreds of stores of a run (16 shards of each, per worker) still passed through the heap on
/// their way up and left it holding about 55 MiB of freed blocks at 10M events.
package enum MemoryPolicy {
    /// Blocks of this size or more get a mapping of their own.
    static let mappedBlockBytes: Int32 = 128 << 10

    /// Fixes the mmap threshold; call once, first thing in `main`.
    package static func install() {
        _ = mallopt(M_MMAP_THRESHOLD, mappedBlockBytes)
    }
}
