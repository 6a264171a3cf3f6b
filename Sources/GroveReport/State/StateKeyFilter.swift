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
    private(set) var blocks: [[UInt64]]
    /// Blocks changed since it was read.
    private(set) var changed = Set<Int>()

    static let bitsPerDigest = 10
    static let probes = 7
    static let wordsPerBlock = 512
    static let smallestCapacity = 1 << 14

    init(capacity: Int) {
        self.capacity = max(capacity, Self.smallestCapacity)
        count = 0
        blocks = Array(repeating: [UInt64](repeating: 0, count: Self.wordsPerBlock), count: Self.blockCount(capacity: self.capacity))
        changed = Set(blocks.indices)
    }

    /// A filter as stored; nil when its blocks do not fit its capacity (a damaged state).
    init?(capacity: Int, count: Int, blocks stored: [[UInt8]]) {
        guard capacity >= Self.smallestCapacity, count >= 0, stored.count == Self.blockCount(capacity: capacity),
              stored.allSatisfy({ $0.count == Self.wordsPerBlock * 8 })
        else { return nil }
        self.capacity = capacity
        self.count = count
        blocks = stored.map { bytes in
            stride(from: 0, to: bytes.count, by: 8).map { start in bytes[start..<start + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        }
    }

    private static func blockCount(capacity: Int) -> Int {
        let blockBits = wordsPerBlock * 64
        return (capacity * bitsPerDigest + blockBits - 1) / blockBits
    }

    /// A block's bits as stored, little-endian words.
    func bytes(ofBlock block: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.wordsPerBlock * 8)
        for word in blocks[block] { for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) } }
        return bytes
    }

    /// Whether adding `more` digests would take it past its capacity.
    func isFull(adding more: Int) -> Bool { count + more > capacity }

    mutating func add(_ digest: Int64) {
        let (block, positions) = place(digest)
        for position in positions { blocks[block][Int(position >> 6)] |= 1 << (position & 63) }
        changed.insert(block)
        count += 1
    }

    func mightContain(_ digest: Int64) -> Bool {
        let (block, positions) = place(digest)
        return positions.allSatisfy { blocks[block][Int($0 >> 6)] & (1 << ($0 & 63)) != 0 }
    }

    /// The block and the bits in it: the digest's SplitMix64 mix picks the block, and double
    /// hashing (a + i·b) the bits.
    private func place(_ digest: Int64) -> (block: Int, positions: [UInt64]) {
        var mixed = UInt64(bitPattern: digest) &+ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        let block = Int(mixed % UInt64(blocks.count))
        let bits = UInt64(Self.wordsPerBlock * 64)
        let first = UInt64(bitPattern: digest)
        let step = (mixed >> 20) | 1
        return (block, (0..<UInt64(Self.probes)).map { (first &+ $0 &* step) % bits })
    }
}
