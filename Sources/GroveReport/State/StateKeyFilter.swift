/// A Bloom filter of every digest the state has stored (record keys and link names): a night's
/// new keys, most of its keys, are then answered from memory instead of by a B-tree probe each,
/// and only the keys it may hold are looked up. It never misses a stored digest; about one
/// absent digest in a hundred passes it and costs the probe it would have cost anyway.
///
/// Blocked: a digest picks one block of 4 KiB and sets seven bits in it, so a night writes back
/// only the blocks its digests fell in (a one-line night, one block), not the whole filter. Ten
/// bits a digest; the positions come from the digest itself, already a keyed pseudo-random value
/// (`StateKeyDigest`), mixed once more. When it holds more digests than it was sized for, it is
/// rebuilt twice as large from the tables.
struct StateKeyFilter {
    /// The digests it was sized for; it holds up to that many at its nominal error rate.
    private(set) var capacity: Int
    /// Digests added (with repeats), which decides when it is rebuilt.
    private(set) var count: Int
    /// The blocks' words, block after block: one flat array, so adding a digest allocates nothing.
    private var words: [UInt64]
    /// Whether each block changed since it was read.
    private var changedBlocks: [Bool]

    static let bitsPerDigest = 10
    static let probes = 7
    static let wordsPerBlock = 512
    static let smallestCapacity = 1 << 14

    init(capacity: Int) {
        self.capacity = max(capacity, Self.smallestCapacity)
        count = 0
        let blockCount = Self.blockCount(capacity: self.capacity)
        words = [UInt64](repeating: 0, count: blockCount * Self.wordsPerBlock)
        changedBlocks = [Bool](repeating: true, count: blockCount)
    }

    /// A filter as stored; nil when its blocks do not fit its capacity (a damaged state).
    init?(capacity: Int, count: Int, blocks stored: [[UInt8]]) {
        guard capacity >= Self.smallestCapacity, count >= 0, stored.count == Self.blockCount(capacity: capacity),
              stored.allSatisfy({ $0.count == Self.wordsPerBlock * 8 })
        else { return nil }
        self.capacity = capacity
        self.count = count
        var words: [UInt64] = []
        words.reserveCapacity(stored.count * Self.wordsPerBlock)
        for bytes in stored {
            bytes.withUnsafeBytes { raw in
                for index in 0..<Self.wordsPerBlock {
                    words.append(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
                }
            }
        }
        self.words = words
        changedBlocks = [Bool](repeating: false, count: stored.count)
    }

    private static func blockCount(capacity: Int) -> Int {
        let blockBits = wordsPerBlock * 64
        return (capacity * bitsPerDigest + blockBits - 1) / blockBits
    }

    var blockCount: Int { changedBlocks.count }

    /// The blocks changed since it was read, in order.
    var changed: [Int] { changedBlocks.indices.filter { changedBlocks[$0] } }

    /// A block's bits as stored, little-endian words.
    func bytes(ofBlock block: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.wordsPerBlock * 8)
        for word in words[block * Self.wordsPerBlock..<(block + 1) * Self.wordsPerBlock] {
            withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Whether adding `more` digests would take it past its capacity.
    func isFull(adding more: Int) -> Bool { count + more > capacity }

    mutating func add(_ digest: Int64) {
        let place = place(digest)
        words.withUnsafeMutableBufferPointer { words in
            for probe in 0..<UInt64(Self.probes) {
                let bit = place.bit(probe)
                words[place.firstWord + Int(bit >> 6)] |= 1 << (bit & 63)
            }
        }
        changedBlocks[place.block] = true
        count += 1
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

    /// The digest's SplitMix64 mix picks the block and the step; the digest itself the first bit.
    private func place(_ digest: Int64) -> Place {
        var mixed = UInt64(bitPattern: digest) &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        let block = Int(mixed % UInt64(blockCount))
        return Place(block: block, firstWord: block * Self.wordsPerBlock, first: UInt64(bitPattern: digest), step: (mixed >> 20) | 1)
    }
}
