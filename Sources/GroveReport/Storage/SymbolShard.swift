#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One shard of a `SymbolTable`: the strings whose hashes share its top bits, stored once each
/// in one growing arena and numbered densely from 0 in the order they arrived.
struct SymbolShard: Sendable {
    private var arena = GrowingArray<UInt8>()
    /// Start of each string's bytes in `arena`; one extra entry marks the end of the last.
    /// Four bytes a string: a shard's arena stays far below 4 GiB (`append` checks).
    private var starts = GrowingArray<UInt32>(CollectionOfOne(0))
    /// The strings' numbers by the low 32 bits of their hash (the tag): a probe passes other
    /// strings without reading their bytes (each read is a cache miss in a table of millions),
    /// and the tags are all a rehash needs to place a string again.
    private var slots = SlotTable()

    init() {}

    /// The number of strings in the shard.
    var count: Int { starts.count - 1 }

    /// The number of `bytes`, whose hash is `hash`, adding them when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32 {
        let number = count
        let probe = slots.probe(Self.tag(hash)) { equals($0, bytes) }
        if let found = probe.position { return UInt32(truncatingIfNeeded: found) }
        slots.insert(Self.tag(hash), at: number, after: probe)
        append(bytes)
        return UInt32(number)
    }

    /// Asks for the cache line of the slot where a probe for `hash` starts. Mutating, like the
    /// next two steps and `SymbolTable.prefetch`, only so that the shard is reached in place,
    /// not copied out of the table's inline array (and its arrays retained).
    mutating func prefetch(hash: UInt64) {
        slots.prefetch(Self.tag(hash))
    }

    /// Reads the slots a probe for `hash` passes (asked for by `prefetch(hash:)`) up to the first
    /// string whose hash bits match, and asks for its entry in `starts`: the number of that
    /// string, which is most likely the one to be interned, or nil when none matches.
    mutating func prefetchEntry(hash: UInt64) -> UInt32? {
        guard let number = slots.position(Self.tag(hash), where: { _ in true }) else { return nil }
        starts.prefetch(number)
        return UInt32(truncatingIfNeeded: number)
    }

    /// Reads the entry of string `number` (asked for by `prefetchEntry`) and asks for the cache
    /// lines of its bytes, which a probe compares.
    mutating func prefetchBytes(_ number: UInt32) {
        let index = Int(number)
        let (start, end) = (Int(starts[index]), Int(starts[index + 1]))
        guard end > start else { return }
        arena.prefetch(start)
        arena.prefetch(end - 1)
    }

    /// The number of `bytes` when the shard holds them.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32? {
        slots.position(Self.tag(hash)) { equals($0, bytes) }.map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The bytes of string `number`.
    func bytes(_ number: UInt32) -> Slice<GrowingArray<UInt8>> {
        let index = Int(number)
        return arena[Int(starts[index])..<Int(starts[index + 1])]
    }

    /// The numbers of the strings that hold `byte`, in order, found by `memchr` over the arena
    /// rather than string by string: a night's sealing looks for the `@` of an email among
    /// hundreds of thousands of ids that hold none.
    func numbers(holding byte: UInt8) -> [UInt32] {
        var found: [UInt32] = []
        arena.withUnsafeBufferPointer { arena in
            starts.withUnsafeBufferPointer { starts in
                guard let base = arena.baseAddress else { return }
                var offset = 0
                while offset < arena.count, let hit = memchr(base + offset, Int32(byte), arena.count - offset) {
                    let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                    // The string holding it: the last one starting at or before it (an empty
                    // string starts where the next one does).
                    let number = starts.firstIndex(past: { Int($0) <= position }) - 1
                    found.append(UInt32(number))
                    offset = Int(starts[number + 1])
                }
            }
        }
        return found
    }

    /// Interns every string of `source`, a shard of another table, in its order there: hands each
    /// string's number there and its number here to `interned`. `hash` must be the hash both
    /// tables use.
    ///
    /// In a shard of millions of strings each probe is three dependent cache misses (the slot, the
    /// entry, the bytes: `SymbolTable.Pending`), so, as for lines (`LineClassifier`), the slots of
    /// eight strings are asked for, then their entries, then their bytes, before the eight are
    /// interned in order.
    mutating func intern(
        contentsOf source: SymbolShard, hash: (UnsafeBufferPointer<UInt8>) -> UInt64,
        _ interned: (_ sourceNumber: Int, _ number: UInt32) -> Void
    ) {
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
                    for member in batch { interned(first + member, intern(string(first + member), hash: hashes[member])) }
                }
            }
        }
    }

    /// Releases the slots of a shard that will only be read by number from now on.
    mutating func releaseSlots() {
        slots = SlotTable()
    }

    /// Room for `strings` strings of `bytes` bytes in all, so that a merge grows the shard once.
    mutating func reserve(strings: Int, bytes: Int) {
        arena.reserveCapacity(bytes)
        starts.reserveCapacity(strings + 1)
        slots.reserve(strings)
    }

    var byteCount: Int { arena.count }

    /// A string's tag in the slots: the hash's low 32 bits (its top bits chose the shard).
    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash)
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        arena.append(contentsOf: bytes)
        precondition(arena.count < Int(UInt32.max), "a symbol shard holds less than 4 GiB of strings")
        starts.append(UInt32(truncatingIfNeeded: arena.count))
    }

    /// Whether string `number` is `bytes`: its arena is read only when the lengths match.
    @inline(__always)
    private func equals(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(starts[number])
        let length = Int(starts[number + 1]) - start
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
}
