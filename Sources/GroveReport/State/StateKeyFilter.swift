/// A Bloom filter of the digests of one index run (`StateIndex`): a night's new keys, most of
/// its keys, are then answered from memory instead of by a chunk read each, and only the runs
/// that may hold a key are read. It never misses a digest it holds; about one absent digest in a
/// hundred passes it and costs a chunk read.
///
/// Blocked: a digest picks one block of one cache line (512 bits) and sets seven bits in it, so a
/// probe costs one memory access. Ten bits a digest. The block is the digest's place in the
/// digests' range, so the sorted digests a run is written from and a night probes with walk the
/// filter front to back (a 4 KiB block at a mixed place cost a cache miss a bit: 5 % of a 2M-event
/// night was adding to filters). Digests are keyed pseudo-random values (`StateKeyDigest`), so
/// their high bits spread them evenly; the bits in a block come from their mix. Written once,
/// with its run.
struct StateKeyFilter {
    /// The digests it was sized for; it holds up to that many at its nominal error rate.
    let capacity: Int
    /// The blocks' words, block after block: one flat array, so adding a digest allocates nothing.
    private var words: [UInt64]

    static let bitsPerDigest = 10
    static let probes = 7
    static let wordsPerBlock = 8
    static let smallestCapacity = 1 << 10

    init(capacity: Int) {
        self.capacity = max(capacity, Self.smallestCapacity)
        words = [UInt64](repeating: 0, count: Self.blockCount(capacity: self.capacity) * Self.wordsPerBlock)
    }

    /// A filter as stored (`bytes`); nil when they do not fit its capacity (a damaged state).
    init?(capacity: Int, bytes: [UInt8]) {
        guard capacity >= Self.smallestCapacity, bytes.count == Self.blockCount(capacity: capacity) * Self.wordsPerBlock * 8 else {
            return nil
        }
        self.capacity = capacity
        words = bytes.withUnsafeBytes { raw in
            (0..<raw.count / 8).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
    }

    private static func blockCount(capacity: Int) -> Int {
        let blockBits = wordsPerBlock * 64
        return (capacity * bitsPerDigest + blockBits - 1) / blockBits
    }

    private var blockCount: Int { words.count / Self.wordsPerBlock }

    /// Its bits as stored: little-endian words.
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 8)
        for word in words {
            withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    mutating func add(_ digest: Int64) {
        let place = place(digest)
        words.withUnsafeMutableBufferPointer { words in
            for probe in 0..<UInt64(Self.probes) {
                let bit = place.bit(probe)
                words[place.firstWord + Int(bit >> 6)] |= 1 << (bit & 63)
            }
        }
    }

    func mightContain(_ digest: Int64) -> Bool {
        let place = place(digest)
        return words.withUnsafeBufferPointer { words in
            (0..<UInt64(Self.probes)).allSatisfy { probe in
                let bit = place.bit(probe)
                return words[place.firstWord + Int(bit >> 6)] & (1 << (bit & 63)) != 0
            }
        }
    }

    /// Where a digest's bits lie: a block, and bit `first + i·step` (mod the block's bits) for
    /// probe i (double hashing).
    private struct Place {
        var block: Int
        var firstWord: Int
        var first: UInt64
        var step: UInt64

        func bit(_ probe: UInt64) -> UInt64 { (first &+ probe &* step) % UInt64(StateKeyFilter.wordsPerBlock * 64) }
    }

    /// The digest's place among 48-bit values picks the block (in digest order); its SplitMix64
    /// mix the first bit and the step.
    private func place(_ digest: Int64) -> Place {
        var mixed = UInt64(bitPattern: digest) &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        // From [-2⁴⁷, 2⁴⁷) to [0, 2⁴⁸), then scaled to the blocks (the high word of u·2¹⁶ × blocks).
        let offset = UInt64(bitPattern: digest &+ (1 << 47)) & (1 << 48 - 1)
        let block = Int((offset << 16).multipliedFullWidth(by: UInt64(blockCount)).high)
        return Place(block: block, firstWord: block * Self.wordsPerBlock, first: mixed, step: (mixed >> 20) | 1)
    }
}
