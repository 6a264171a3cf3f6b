import CShims

/// The cache prefetch hint (`grove_prefetch`, the compiler's `__builtin_prefetch`) behind the
/// one place it is called: asks for the cache line of an element ahead of a read, so that the
/// read's miss overlaps with other work. A hint never faults, so any index is safe; an index out
/// of the buffer only wastes the hint.
extension UnsafeBufferPointer {
    @inline(__always)
    func prefetch(_ index: Int) {
        guard let base = baseAddress, index >= 0, index < count else { return }
        grove_prefetch(base + index)
    }
}

extension GrowingArray {
    /// Asks for the cache line of element `index` (`UnsafeBufferPointer.prefetch`).
    @inline(__always)
    func prefetch(_ index: Int) {
        withUnsafeBufferPointer { $0.prefetch(index) }
    }
}
