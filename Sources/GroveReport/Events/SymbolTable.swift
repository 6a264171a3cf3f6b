
/// A byte string interned in a `SymbolTable`: a dense number, equal for equal bytes.
struct Symbol: Hashable, Sendable {
    let raw: UInt32

    init(raw: UInt32) {
        self.raw = raw
    }
}

/// Interns byte strings: each distinct string is stored once, in one growing arena, and named by
/// a dense `Symbol`.
///
/// This is what keeps the hot path free of allocation and memory proportional to distinct keys:
/// a validated event holds symbols (four bytes each) instead of heap strings, records are stored
/// in arrays indexed by symbol, and equal symbols mean equal bytes. Symbols are local to a table;
/// `translation(into:)` maps them when partial states built by different threads merge.
struct SymbolTable: Sendable {
    private var arena: [UInt8] = []
    /// Start of each symbol's bytes in `arena`; one extra entry marks the end of the last.
    private var starts: [Int] = [0]
    /// Open addressing, a power of two of slots: the low 32 bits of the string's hash above
    /// symbol + 1, or 0 for an empty slot. The hash bits let a probe pass other strings without
    /// reading their bytes (each read is a cache miss in a table of millions), and are all a
    /// rehash needs to place a symbol again.
    private var slots: [UInt64] = Array(repeating: 0, count: 1024)
    private let seed: UInt64

    /// `seed` varies the hash so that crafted ids cannot force collisions; it never changes results.
    init(seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.seed = seed
    }

    /// The number of distinct strings interned.
    var count: Int { starts.count - 1 }

    /// The symbol for `bytes`, adding them when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
        let hash = SymbolTable.hash(bytes, seed: seed)
        let (index, found) = probe(bytes, hash: hash)
        if let found { return found }
        let symbol = UInt32(count)
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        slots[index] = Self.slot(hash: hash, symbol: symbol)
        if Self.overloaded(count, slots: slots.count) { grow() }
        return Symbol(raw: symbol)
    }

    /// The slot holding `bytes`' symbol, or the empty slot where it belongs.
    private func probe(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (index: Int, symbol: Symbol?) {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            let hashBits = Self.slot(hash: hash, symbol: 0) & Self.hashBitsMask
            var index = Int(truncatingIfNeeded: hash) & mask
            while slots[index] != 0 {
                let slot = slots[index]
                if slot & Self.hashBitsMask == hashBits {
                    let candidate = UInt32(truncatingIfNeeded: slot) - 1
                    if equals(Int(candidate), bytes) { return (index, Symbol(raw: candidate)) }
                }
                index = (index + 1) & mask
            }
            return (index, nil)
        }
    }

    /// Up to three symbols in four slots, half the memory of a table at most half full: with the
    /// hash bits in the slot, passing a neighbour reads no string, and neighbours share a cache line.
    private static func overloaded(_ symbols: Int, slots: Int) -> Bool {
        symbols * 4 > slots * 3
    }

    private static let hashBitsMask: UInt64 = 0xFFFF_FFFF_0000_0000

    private static func slot(hash: UInt64, symbol: UInt32) -> UInt64 {
        hash << 32 | UInt64(symbol + 1)
    }

    /// The symbol of `string` when it was interned, without adding it.
    func lookup(_ string: ByteString) -> Symbol? {
        string.bytes.withUnsafeBufferPointer { probe($0, hash: SymbolTable.hash($0, seed: seed)).symbol }
    }

    mutating func intern(_ bytes: [UInt8]) -> Symbol {
        bytes.withUnsafeBufferPointer { intern($0) }
    }

    mutating func intern(_ string: ByteString) -> Symbol {
        intern(string.bytes)
    }

    /// The bytes of a symbol of this table.
    func bytes(_ symbol: Symbol) -> ArraySlice<UInt8> {
        let index = Int(symbol.raw)
        return arena[starts[index]..<starts[index + 1]]
    }

    func string(_ symbol: Symbol) -> ByteString {
        ByteString(Array(bytes(symbol)))
    }

    /// Byte-wise order of two symbols' strings.
    func precedes(_ lhs: Symbol, _ rhs: Symbol) -> Bool {
        lhs != rhs && bytes(lhs).lexicographicallyPrecedes(bytes(rhs))
    }

    /// Byte-wise order with an absent value first, as the tie rules of docs/ATTRIBUTION.md and docs/EXPOSURE.md say.
    func precedes(_ lhs: Symbol?, _ rhs: Symbol?) -> Bool {
        switch (lhs, rhs) {
        case let (left?, right?): return precedes(left, right)
        case (nil, .some): return true
        default: return false
        }
    }

    /// For each symbol of this table, the symbol of the same bytes in `other` (interned there when
    /// new). Consumes the table and releases its slots first: the merged table grows while this one
    /// is still read, and the peak memory of a run is reached here or close by.
    consuming func translation(into other: inout SymbolTable) -> SymbolTranslation {
        slots = []
        var map = [Symbol]()
        map.reserveCapacity(count)
        other.reserve(symbols: other.count + count, bytes: other.arena.count + arena.count)
        arena.withUnsafeBufferPointer { arena in
            for index in 0..<count {
                map.append(other.intern(UnsafeBufferPointer(rebasing: arena[starts[index]..<starts[index + 1]])))
            }
        }
        return SymbolTranslation(map: map)
    }

    /// Room for `symbols` strings of `bytes` bytes in all, so that a merge grows the table once.
    private mutating func reserve(symbols: Int, bytes: Int) {
        arena.reserveCapacity(bytes)
        starts.reserveCapacity(symbols + 1)
        var size = slots.count
        while Self.overloaded(symbols, slots: size) { size *= 2 }
        if size > slots.count { rehash(into: size) }
    }

    private func equals(_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[index]
        let length = starts[index + 1] - start
        guard length == bytes.count else { return false }
        guard length > 0 else { return true }
        return arena.withUnsafeBufferPointer { Self.sameBytes($0.baseAddress! + start, bytes.baseAddress!, length) }
    }

    /// Compares ids (mostly 8 to 40 bytes) eight bytes at a time, the last word overlapping,
    /// without the call into `memcmp`.
    private static func sameBytes(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        guard length >= 8 else {
            return littleEndianWord(UnsafeBufferPointer(start: lhs, count: length))
                == littleEndianWord(UnsafeBufferPointer(start: rhs, count: length))
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

    private mutating func grow() {
        rehash(into: slots.count * 2)
    }

    private mutating func rehash(into size: Int) {
        precondition(size <= 1 << 32, "a symbol table's slots are found by 32 hash bits")
        var larger = [UInt64](repeating: 0, count: size)
        let mask = larger.count - 1
        for slot in slots where slot != 0 {
            var index = Int(truncatingIfNeeded: slot >> 32) & mask
            while larger[index] != 0 { index = (index + 1) & mask }
            larger[index] = slot
        }
        slots = larger
    }

    /// A fast seeded 64-bit hash: eight bytes at a time, finished with the murmur3 mixer.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return mix(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ mix(word)) &* 0xFF51_AFD7_ED55_8CCD
            hash = (hash << 27) | (hash >> 37)
            offset += 8
        }
        let tail = littleEndianWord(UnsafeBufferPointer(rebasing: bytes[offset...]))
        return mix(hash ^ mix(tail ^ 0x2545_F491_4F6C_DD1D))
    }

    /// The first up-to-eight bytes as a little-endian word, zero-padded, without reading past the end.
    static func littleEndianWord(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        switch count {
        case 8...:
            return raw.loadUnaligned(as: UInt64.self)
        case 4...7:
            // Two overlapping four-byte loads; the shared bytes OR onto themselves.
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return low | high << (8 * UInt64(count - 4))
        case 1...3:
            return UInt64(base[0]) | UInt64(base[count / 2]) << (8 * UInt64(count / 2)) | UInt64(base[count - 1]) << (8 * UInt64(count - 1))
        default:
            return 0
        }
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x = x &* 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}

/// Maps the symbols of one table to those of another.
struct SymbolTranslation: Sendable {
    let map: [Symbol]

    subscript(_ symbol: Symbol) -> Symbol { map[Int(symbol.raw)] }

    subscript(_ symbol: Symbol?) -> Symbol? { symbol.map { map[Int($0.raw)] } }
}
