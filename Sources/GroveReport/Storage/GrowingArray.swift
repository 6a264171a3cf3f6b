#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An array for the keyed stores, which grow by millions of appends: its storage grows with
/// `realloc`, which moves a block with a mapping of its own (every block of 128 KiB or more,
/// `MemoryPolicy`) to its larger size with `mremap`, its pages and all, where a Swift array
/// allocates a fresh block, copies into it and frees the old one. At 10M events those doublings
/// faulted in 3 GiB of fresh pages (zeroed by the kernel, then written over) for 1 GiB of peak
/// memory, and held the old and the new block at once.
///
/// A consuming pass (`forEachConsumed`) gives back the pages of the elements it has moved out as it
/// goes: a join stage that turns one store into others then holds the unconsumed rest of its
/// input and what it wrote, not both stores whole (at 10M events, stage 1 of the first
/// partitions held 27 MiB each over the merged state, the peak of the run).
///
/// Value semantics as `Array`'s: copies share storage until one of them is changed. Elements are
/// moved by their bytes, which Swift allows for every type the stores hold (no weak references,
/// nothing that knows its own address). Unlike `Array`, even an empty one allocates its storage
/// object: the stores are few and long-lived, so this costs less than a check on every append.
struct GrowingArray<Element> {
    private var storage = Storage()

    init() {}

    init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        reserveCapacity(elements.underestimatedCount)
        for element in elements { append(element) }
    }

    var capacity: Int { storage.capacity }

    mutating func append(_ element: Element) {
        makeUnique()
        if storage.count == storage.capacity { storage.resize(to: Swift.max(16, storage.capacity * 2)) }
        (storage.base.unsafelyUnwrapped + storage.count).initialize(to: element)
        storage.count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        makeUnique()
        let needed = storage.count + elements.count
        if needed > storage.capacity { storage.resize(to: Swift.max(needed, storage.capacity * 2)) }
        (storage.base.unsafelyUnwrapped + storage.count).initialize(from: source, count: elements.count)
        storage.count = needed
    }

    /// Hands every element to `body` in order, leaving nothing behind. The only owner of its
    /// storage moves them out, which saves a store taken apart a copy of each (and its retains
    /// and releases); a shared storage is left to its other owners, and `body` gets copies.
    consuming func forEachConsumed(_ body: (consuming Element) -> Void) {
        guard isKnownUniquelyReferenced(&storage) else {
            for element in self { body(element) }
            return
        }
        let (base, count) = (storage.base, storage.count)
        // Moved out below: the storage frees its block without deinitializing them.
        storage.count = 0
        var released = 0
        for index in 0..<count {
            body((base.unsafelyUnwrapped + index).move())
            if index & Self.releaseCheckMask == Self.releaseCheckMask {
                released = storage.releasePages(consumed: index + 1, after: released)
            }
        }
    }

    /// How often (in elements, minus one) `forEachConsumed` checks for pages to give back.
    private static var releaseCheckMask: Int { 1023 }

    /// Room for `minimumCapacity` elements in all.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        makeUnique()
        if minimumCapacity > storage.capacity { storage.resize(to: minimumCapacity) }
    }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: storage.count)) }
    }

    /// Calls `body` with the buffers of every array of `arrays` at once (a merge of several).
    static func withUnsafeBufferPointers<Result, Failure: Error>(
        _ arrays: [GrowingArray], _ body: ([UnsafeBufferPointer<Element>]) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(arrays) { () throws(Failure) -> Result in
            try body(arrays.map { UnsafeBufferPointer(start: $0.storage.base, count: $0.storage.count) })
        }
    }

    mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (UnsafeMutableBufferPointer<Element>) throws -> Result
    ) rethrows -> Result {
        makeUnique()
        return try withExtendedLifetime(storage) {
            try body(UnsafeMutableBufferPointer(start: storage.base, count: storage.count))
        }
    }

    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The elements and the block that holds them.
    private final class Storage {
        private(set) var base: UnsafeMutablePointer<Element>?
        var count = 0
        private(set) var capacity = 0

        init() {
            // `malloc`'s blocks are aligned for any standard type, and no more.
            precondition(MemoryLayout<Element>.alignment <= 16, "a GrowingArray element is aligned to 16 bytes at most")
        }

        deinit {
            base?.deinitialize(count: count)
            free(base)
        }

        /// Moves the elements into a block of `capacity` elements (never fewer than `count`).
        func resize(to capacity: Int) {
            let bytes = Swift.max(1, capacity * MemoryLayout<Element>.stride)
            guard let block = realloc(base, bytes) else { fatalError("out of memory growing an array to \(bytes) bytes") }
            base = block.bindMemory(to: Element.self, capacity: capacity)
            self.capacity = capacity
        }

        /// Gives back the whole pages of the first `consumed` elements, moved out by
        /// `forEachConsumed`, beyond the byte offset `after` already given back, once they
        /// make up at least `releaseBytes`; returns the offset given back up to. The pages stay
        /// mapped, read as zeros, and go with the block; the allocator's own bytes (before the
        /// block, after its elements) are never inside them.
        func releasePages(consumed: Int, after released: Int) -> Int {
            guard let base else { return released }
            let page = Self.pageSize
            let address = UInt(bitPattern: base)
            let firstPage = Int((address + UInt(page) - 1) & ~UInt(page - 1) - address)
            let start = Swift.max(released, firstPage)
            let end = Int((address + UInt(consumed * MemoryLayout<Element>.stride)) & ~UInt(page - 1) - address)
            guard end - start >= Self.releaseBytes else { return released }
            _ = madvise(UnsafeMutableRawPointer(base) + start, end - start, MADV_DONTNEED)
            return end
        }

        /// How many consumed bytes `releasePages` waits for: a system call a quarter MiB.
        private static var releaseBytes: Int { 256 << 10 }

        private static var pageSize: Int { Int(getpagesize()) }

        /// A storage of its own with copies of the elements.
        func copy() -> Storage {
            let copy = Storage()
            guard count > 0 else { return copy }
            copy.resize(to: count)
            copy.base!.initialize(from: base!, count: count)
            copy.count = count
            return copy
        }
    }
}

extension GrowingArray: RandomAccessCollection, MutableCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { storage.count }

    /// The elements in place: copying a slice (a symbol's bytes) into an array is then one move.
    func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result? {
        try withUnsafeBufferPointer(body)
    }

    /// The elements in place, to change: a sort then works on them rather than on a copy.
    mutating func withContiguousMutableStorageIfAvailable<Result>(
        _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        try withUnsafeMutableBufferPointer { buffer in
            var elements = buffer
            return try body(&elements)
        }
    }

    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < storage.count, "GrowingArray index out of range")
            return storage.base.unsafelyUnwrapped[position]
        }
        _modify {
            precondition(position >= 0 && position < storage.count, "GrowingArray index out of range")
            makeUnique()
            yield &storage.base.unsafelyUnwrapped[position]
        }
    }
}

/// Shared storage is never written (`makeUnique`), so copies may cross threads as `Array`s do.
extension GrowingArray: @unchecked Sendable where Element: Sendable {}
