import CMalloc
import Synchronization

/// How the process asks glibc's allocator for memory, by phase of a run.
///
/// While reading, the keyed stores grow by doubling arrays of tens of megabytes. glibc's default
/// mmap threshold rises to the size of every large block freed (up to 32 MiB), after which such
/// arrays come from the heap, and a freed array leaves a hole that the next, larger one cannot
/// reuse: at 10M events that fragmentation was about 300 MiB of peak RSS. A fixed threshold keeps
/// every block of 1 MiB or more in its own mapping, returned to the system when freed.
///
/// After the last byte, memory only shrinks: the merge and each join stage build stores and free
/// the ones they consumed. In mappings of their own, every new store's pages were faulted in and
/// zeroed afresh and every freed one unmapped, a quarter of that time at 10M events. From a heap
/// that is never trimmed, a stage reuses what the one before it freed.
public enum MemoryPolicy {
    /// What the allocator is tuned for.
    enum Phase {
        /// Stores grow: large blocks in mappings of their own.
        case reading
        /// Stores are merged, joined and released: large blocks from the heap, kept for reuse.
        case merging
    }

    /// Blocks of this size or more get a mapping of their own while reading.
    static let mappedBlockBytes: Int32 = 1 << 20

    /// Whether the process asked for the policy: a library call changes no allocator otherwise.
    private static let installed = Atomic<Bool>(false)

    /// Tunes the allocator for reading, and lets the pipeline switch phases from now on; call
    /// once, first thing in `main`.
    public static func install() {
        installed.store(true, ordering: .relaxed)
        enter(.reading)
    }

    /// Tunes the allocator for `phase`, when the process installed the policy.
    static func enter(_ phase: Phase) {
        guard installed.load(ordering: .relaxed) else { return }
        switch phase {
        case .reading:
            _ = mallopt(M_MMAP_THRESHOLD, mappedBlockBytes)
            // glibc's default: free memory above 128 KiB at the top of a heap goes back.
            _ = mallopt(M_TRIM_THRESHOLD, 128 << 10)
        case .merging:
            // The largest threshold glibc accepts; larger blocks still get mappings.
            _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
            _ = mallopt(M_TRIM_THRESHOLD, 1 << 30)
        }
    }
}
