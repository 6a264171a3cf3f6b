/// The engine's hashes, in one place: `SipHash` keys the hash of every id a log brings (a sender
/// must not be able to make ids collide), `Hashing.mix` spreads the bits of keys the engine made
/// itself (symbols, which no sender chooses), and `ByteWord` reads the words both hash.
enum Hashing {
    /// 2^64 divided by the golden ratio: a product by it spreads consecutive numbers over the top
    /// bits (Fibonacci hashing; `SlotTable`'s probe start, the name cache's slots).
    @inline(__always) static var golden: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit. For keys of
    /// symbols (`HashedIndex`), not for bytes from a log: it is not keyed.
    @inline(__always)
    static func mix(_ bits: UInt64) -> UInt64 {
        var hash = bits
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }
}

/// SipHash (Aumasson and Bernstein), a keyed pseudo-random function for short inputs, with its
/// round counts as parameters: 1-3 hashes ids in memory (as Swift's own `Hasher` and Rust's do),
/// 2-4 is the reference the tests hold it to (and OpenSSL's, which the state uses).
///
/// Written out rather than taken from `Hasher`, which is SipHash-1-3 too: fed a byte buffer,
/// `Hasher` cost 9.7 % more instructions a line of the whole run than the unkeyed hash before
/// it (callgrind, 200k lines), this 2.8 %: an id of 20 to 40 bytes is three to five words, and
/// the last is read in at most two loads.
struct SipHash {
    /// The 128-bit key.
    struct Key: Sendable {
        var k0: UInt64
        var k1: UInt64

        /// A key from the system's random generator.
        static func random() -> Key {
            Key(k0: UInt64.random(in: 0...UInt64.max), k1: UInt64.random(in: 0...UInt64.max))
        }
    }

    /// The 64-bit SipHash-`compression`-`finalization` of `bytes` under `key`.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, key: Key, compression: Int = 1, finalization: Int = 3) -> UInt64 {
        var v0 = key.k0 ^ 0x736F_6D65_7073_6575
        var v1 = key.k1 ^ 0x646F_7261_6E64_6F6D
        var v2 = key.k0 ^ 0x6C79_6765_6E65_7261
        var v3 = key.k1 ^ 0x7465_6462_7974_6573

        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotated(13); v1 ^= v0; v0 = v0.rotated(32)
            v2 &+= v3; v3 = v3.rotated(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotated(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotated(17); v1 ^= v2; v2 = v2.rotated(32)
        }
        @inline(__always) func absorb(_ word: UInt64) {
            v3 ^= word
            for _ in 0..<compression { round() }
            v0 ^= word
        }

        let count = bytes.count
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset + 8 <= count {
            absorb(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        // The last word: the remaining bytes, little-endian, and the length's low byte on top.
        let tail = ByteWord.littleEndian(UnsafeBufferPointer(rebasing: bytes[offset...]))
        absorb(UInt64(truncatingIfNeeded: count) << 56 | tail)
        v2 ^= 0xFF
        for _ in 0..<finalization { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}

/// Words read from bytes, for hashes and short keys.
enum ByteWord {
    /// The first up-to-eight bytes as a little-endian word, zero-padded, without reading past the end.
    @inline(__always)
    static func littleEndian(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
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
}
