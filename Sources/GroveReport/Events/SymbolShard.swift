import CShims

/// One shard of a `SymbolTable`: the strings whose hashes share its top bits, stored once each
/// in one growing arena and numbered densely from 0 in the order they arrived.
struct SymbolShard: Sendable {
    private var arena = GrowingArray<UInt8>()
    /// Start of each string's bytes in `arena`; one extra entry marks the end of the last.
    /// Four bytes a string: a shard's arena stays far below 4 GiB (`append` checks).
    private var starts = GrowingArray<UInt32>(CollectionOfOne(0))
    /// Open addressing, a power of two of slots: the low 32 bits of the string's hash above
    /// number + 1, or 0 for an empty slot. The hash bits let a probe pass other strings without
    /// reading their bytes (each read is a cache miss in a table of millions), and are all a
    /// rehash needs to place a string again.
    private var slots: [UInt64] = Array(repeating: 0, count: 16)

    init() {}

    /// The number of strings in the shard.
    var count: Int { starts.count - 1 }

    /// The number of `bytes`, whose hash is `hash`, adding them when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32 {
        let (index, found) = probe(bytes, hash: hash)
        if let found { return found }
        let number = UInt32(count)
        append(bytes)
        slots[index] = Self.slot(hash: hash, number: number)
        if Self.overloaded(count, slots: slots.count) { rehash(into: slots.count * 2) }
        return number
    }

    /// Asks for the cache line of the slot where a probe for `hash` starts. Mutating, like
    /// `SymbolTable.prefetch`, only so that the shard is not copied (and its arrays retained).
    mutating func prefetch(hash: UInt64) {
        slots.withUnsafeBufferPointer { slots in
            grove_prefetch(slots.baseAddress! + (Int(truncatingIfNeeded: hash) & (slots.count - 1)))
        }
    }

    /// Reads the slots a probe for `hash` passes (asked for by `prefetch(hash:)`) up to the first
    /// string whose hash bits match, and asks for its entry in `starts`: the number of that
    /// string, which is most likely the one to be interned, or nil when none matches.
    mutating func prefetchEntry(hash: UInt64) -> UInt32? {
        guard let number = walk(hash: hash, accepting: { _ in true }).number else { return nil }
        starts.withUnsafeBufferPointer { grove_prefetch($0.baseAddress! + Int(number)) }
        return number
    }

    /// Reads the entry of string `number` (asked for by `prefetchEntry`) and asks for the cache
    /// lines of its bytes, which a probe compares.
    mutating func prefetchBytes(_ number: UInt32) {
        let index = Int(number)
        let (start, end) = (Int(starts[index]), Int(starts[index + 1]))
        guard end > start else { return }
        arena.withUnsafeBufferPointer { arena in
            grove_prefetch(arena.baseAddress! + start)
            grove_prefetch(arena.baseAddress! + end - 1)
        }
    }

    /// The number of `bytes` when the shard holds them.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32? {
        probe(bytes, hash: hash).number
    }

    /// The bytes of string `number`.
    func bytes(_ number: UInt32) -> Slice<GrowingArray<UInt8>> {
        let index = Int(number)
        return arena[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// Interns every string of `source`, a shard of another table, by number there: returns the
    /// numbers they have here. `hash` must be the hash both tables use.
    ///
    /// In a shard of millions of strings each probe is three dependent cache misses (the slot, the
    /// entry, the bytes: `SymbolTable.Pending`), so, as for lines (`LineClassifier`), the slots of
    /// eight strings are asked for, then their entries, then their bytes, before the eight are
    /// interned in order.
    mutating func intern(contentsOf source: SymbolShard, hash: (UnsafeBufferPointer<UInt8>) -> UInt64) -> [UInt32] {
        var numbers = [UInt32]()
        numbers.reserveCapacity(source.count)
        // Room first: no rehash moves a slot between the steps and the interning.
        reserve(strings: count + source.count, bytes: byteCount + source.byteCount)
        // Through pointers: reading `source`'s arrays in the loop would retain and release them.
        source.arena.withUnsafeBufferPointer { arena in
            source.starts.withUnsafeBufferPointer { starts in
                func string(_ number: Int) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: arena[Int(starts[number])..<Int(starts[number + 1])])
                }
                var hashes = InlineArray<8, UInt64>(repeating: 0)
                var candidates = InlineArray<8, UInt32?>(repeating: nil)
                for first in stride(from: 0, to: source.count, by: hashes.count) {
                    let batch = 0..<min(hashes.count, source.count - first)
                    for member in batch {
                        hashes[member] = hash(string(first + member))
                        prefetch(hash: hashes[member])
                    }
                    for member in batch { candidates[member] = prefetchEntry(hash: hashes[member]) }
                    for member in batch { if let candidate = candidates[member] { prefetchBytes(candidate) } }
                    for member in batch { numbers.append(intern(string(first + member), hash: hashes[member])) }
                }
            }
        }
        return numbers
    }

    /// Releases the slots of a shard that will only be read by number from now on.
    mutating func releaseSlots() {
        slots = []
    }

    /// Room for `strings` strings of `bytes` bytes in all, so that a merge grows the shard once.
    mutating func reserve(strings: Int, bytes: Int) {
        arena.reserveCapacity(bytes)
        starts.reserveCapacity(strings + 1)
        var size = slots.count
        while Self.overloaded(strings, slots: size) { size *= 2 }
        if size > slots.count { rehash(into: size) }
    }

    var byteCount: Int { arena.count }

    /// The slot holding `bytes`' number, or the empty slot where it belongs.
    private func probe(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (index: Int, number: UInt32?) {
        walk(hash: hash) { equals(Int($0), bytes) }
    }

    /// Walks the slots of `hash` from the first: the slot of the first string whose hash bits
    /// match and which `accepts` takes, with its number, or the empty slot that ends the walk.
    @inline(__always)
    private func walk(hash: UInt64, accepting accepts: (UInt32) -> Bool) -> (index: Int, number: UInt32?) {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            let hashBits = Self.slot(hash: hash, number: 0) & Self.hashBitsMask
            var index = Int(truncatingIfNeeded: hash) & mask
            while slots[index] != 0 {
                let slot = slots[index]
                if slot & Self.hashBitsMask == hashBits {
                    let candidate = UInt32(truncatingIfNeeded: slot) - 1
                    if accepts(candidate) { return (index, candidate) }
                }
                index = (index + 1) & mask
            }
            return (index, nil)
        }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        arena.append(contentsOf: bytes)
        precondition(arena.count < Int(UInt32.max), "a symbol shard holds less than 4 GiB of strings")
        starts.append(UInt32(truncatingIfNeeded: arena.count))
    }

    /// Up to three strings in four slots, half the memory of a table at most half full: with the
    /// hash bits in the slot, passing a neighbour reads no string, and neighbours share a cache line.
    private static func overloaded(_ strings: Int, slots: Int) -> Bool {
        strings * 4 > slots * 3
    }

    private static let hashBitsMask: UInt64 = 0xFFFF_FFFF_0000_0000

    private static func slot(hash: UInt64, number: UInt32) -> UInt64 {
        hash << 32 | UInt64(number + 1)
    }

    private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(starts[index])
        let length = Int(starts[index + 1]) - start
        guard length == bytes.count else { return false }
        guard length > 0 else { return true }
        return arena.withUnsafeBufferPointer { Self.sameBytes($0.baseAddress! + start, bytes.baseAddress!, length) }
    }

    /// Compares ids (mostly 8 to 40 bytes) eight bytes at a time, the last word overlapping,
    /// without the call into `memcmp`.
    private static func sameBytes(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        guard length >= 8 else {
            return ByteWord.littleEndian(UnsafeBufferPointer(start: lhs, count: length))
                == ByteWord.littleEndian(UnsafeBufferPointer(start: rhs, count: length))
        }
        let (left, right) = (UnsafeRawPointer(lhs), UnsafeRawPointer(rhs))
        var offset = 0
        while offset + 8 < length {
            guard left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        return left.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
    }

    private mutating func rehash(into size: Int) {
        precondition(size <= 1 << 32, "a symbol shard's slots are found by 32 hash bits")
        var larger = [UInt64](repeating: 0, count: size)
        let mask = larger.count - 1
        for slot in slots where slot != 0 {
            var index = Int(truncatingIfNeeded: slot >> 32) & mask
            while larger[index] != 0 { index = (index + 1) & mask }
            larger[index] = slot
        }
        slots = larger
    }
}
