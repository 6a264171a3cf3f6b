
/// A byte string interned in a `SymbolTable`: a dense number, equal for equal bytes.
struct Symbol: Hashable, Sendable {
    let raw: UInt32

    init(raw: UInt32) {
        self.raw = raw
    }

    /// An optional symbol in four bytes: 0 for none, else the raw value + 1 (a table holds fewer
    /// than 2^32 - 1 strings).
    static func packed(_ symbol: Symbol?) -> UInt32 {
        symbol.map { $0.raw + 1 } ?? 0
    }

    /// The symbol `packed` packed.
    init?(packed: UInt32) {
        guard packed != 0 else { return nil }
        self.init(raw: packed - 1)
    }
}

/// Interns byte strings: each distinct string is stored once and named by a `Symbol`.
///
/// This is what keeps the hot path free of allocation and memory proportional to distinct keys:
/// a validated event holds symbols (four bytes each) instead of heap strings, records are stored
/// in arrays indexed by symbol, and equal symbols mean equal bytes. Symbols are local to a table;
/// `translation(into:threads:)` maps them when partial states built by different threads merge.
///
/// Strings are kept in 16 shards by the top bits of their hash. Tables of one process share a seed,
/// so a string is in the same shard of every table, and two tables merge shard by shard on every
/// thread; a shard grows by itself, never the whole table at once.
struct SymbolTable: Sendable {
    private var shards = Array(repeating: SymbolShard(), count: Self.shardCount)
    /// The process's key, kept in the table so that hashing a string does not pass the lazy
    /// initialization check of a static.
    private let key = Self.processKey
    /// The symbols of the names `internName` gave last.
    private var recentNames = NameCache()
    /// The symbols of the words `internWord` gave last.
    private var recentWords = NameCache()
    /// The ids of the line being validated, hashed already (`carry`): the first `carriedCount`.
    private var carried = InlineArray<4, Pending>(repeating: Pending())
    private var carriedCount = 0

    init() {}

    /// Keys the hash so that crafted ids cannot force collisions; it never changes results.
    /// Drawn once a process, at first use, and shared by its tables.
    private static let processKey = SipHash.Key.random()

    /// One value a shard, held inline: reached without the uniqueness check of an array.
    /// Sixteen shards: enough for the threads of a merge, and few enough that a shard's arrays
    /// soon outgrow the heap (64 small shards fragmented it: 5 % more peak memory at 10M events).
    typealias PerShard<Element> = InlineArray<16, Element>
    static let shardCount = PerShard<Bool>.count
    private static let shardBits = shardCount.trailingZeroBitCount
    private static let shardMask = UInt32(shardCount - 1)

    /// The number of distinct strings interned.
    var count: Int { shards.reduce(0) { $0 + $1.count } }

    /// The symbol for `bytes`, adding them when new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
        let (hash, shard) = carriedPlace(bytes) ?? place(bytes)
        return Self.symbol(shards[shard].intern(bytes, hash: hash), shard: shard)
    }

    /// The hash and shard `prefetch` found for these very bytes (the same line, the same place
    /// in it), when they are among the ids `carry` was given: an id is hashed once a line.
    @inline(__always)
    private func carriedPlace(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, shard: Int)? {
        guard carriedCount > 0 else { return nil }
        let address = UInt(bitPattern: bytes.baseAddress)
        return carried.span.withUnsafeBufferPointer { carried in
            for pending in carried[..<carriedCount] where pending.address == address && pending.count == bytes.count {
                return (pending.hash, pending.shard)
            }
            return nil
        }
    }

    /// Hands the table an id of the line about to be validated, as `prefetch` placed it: interning
    /// the same bytes then skips the hash. Ids beyond `carried`'s room are hashed again.
    mutating func carry(_ pending: Pending) {
        guard carriedCount < carried.count else { return }
        carried[carriedCount] = pending
        carriedCount += 1
    }

    /// Forgets the carried ids: their line is done, and its bytes may be reused.
    mutating func dropCarried() {
        carriedCount = 0
    }

    /// The symbol for a value of a field with few distinct values (an app key, a slug, a `utm_*`
    /// parameter), found among the ones given last before it is hashed and probed for.
    mutating func internWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
        if let known = recentWords.symbol(for: bytes) { return known }
        let symbol = intern(bytes)
        recentWords.remember(bytes, as: symbol)
        return symbol
    }

    /// The symbol of a name that reaches an output (campaign, variant, `utm_campaign`), with its
    /// email-like tokens masked first (`EmailMask`).
    mutating func internName(_ bytes: UnsafeBufferPointer<UInt8>) -> Symbol {
        if let known = recentNames.symbol(for: bytes) { return known }
        let symbol = EmailMask.masked(bytes).map { intern($0) } ?? intern(bytes)
        recentNames.remember(bytes, as: symbol)
        return symbol
    }

    /// A string that is about to be interned, on its way into the cache in three steps, each
    /// taken for the ids of a whole batch of lines before the next (`LineClassifier`): in a table
    /// of millions of strings, its slot, its entry in `starts` and its bytes are each a cache
    /// miss, and each read depends on the one before.
    struct Pending {
        fileprivate var hash: UInt64 = 0
        fileprivate var shard = 0
        /// Where the bytes are (only compared, never read): tells them apart among the ids of one line.
        fileprivate var address: UInt = 0
        fileprivate var count = 0
        /// The string the slots point at, once `prefetchEntry` has read them.
        fileprivate var candidate: UInt32?
    }

    /// Step one: hashes `bytes` and asks for the slot that interning them will probe first.
    ///
    /// Mutating only so that the shard is reached in place: read through the array's getter, it
    /// would be copied, four retains and releases each time.
    mutating func prefetch(_ bytes: UnsafeBufferPointer<UInt8>) -> Pending {
        let (hash, shard) = place(bytes)
        shards[shard].prefetch(hash: hash)
        return Pending(hash: hash, shard: shard, address: UInt(bitPattern: bytes.baseAddress), count: bytes.count)
    }

    /// Step two: reads the slot and asks for the entry of the string it points at.
    mutating func prefetchEntry(_ pending: inout Pending) {
        pending.candidate = shards[pending.shard].prefetchEntry(hash: pending.hash)
    }

    /// Step three: reads that entry and asks for the string's bytes.
    mutating func prefetchBytes(_ pending: Pending) {
        if let candidate = pending.candidate { shards[pending.shard].prefetchBytes(candidate) }
    }

    /// The symbol of `string` when it was interned, without adding it.
    func lookup(_ string: ByteString) -> Symbol? {
        string.bytes.withUnsafeBufferPointer { bytes in
            let (hash, shard) = place(bytes)
            return shards[shard].lookup(bytes, hash: hash).map { Self.symbol($0, shard: shard) }
        }
    }

    mutating func intern(_ bytes: [UInt8]) -> Symbol {
        bytes.withUnsafeBufferPointer { intern($0) }
    }

    mutating func intern(_ string: ByteString) -> Symbol {
        intern(string.bytes)
    }

    /// The shard of a symbol's string: the same in every table of the process, so it places the
    /// symbol's records the same way whichever worker's table numbered it (`PartitionKey`).
    static func shard(of symbol: Symbol) -> Int {
        Int(truncatingIfNeeded: symbol.raw & shardMask)
    }

    /// The bytes of a symbol of this table.
    func bytes(_ symbol: Symbol) -> Slice<GrowingArray<UInt8>> {
        shards[Self.shard(of: symbol)].bytes(symbol.raw >> Self.shardBits)
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
    /// new), shard by shard on up to `threads` threads: a string is in the same shard of both.
    /// Consumes the table and releases its slots first: the merged table grows while this one is
    /// still read.
    consuming func translation(into other: inout SymbolTable, threads: Int) -> SymbolTranslation {
        // Each shard, its slots released first (its strings are read by number; the merge's peak
        // memory is at its start), and the same shard of `other`.
        var merges = shards.indices.map { shard in
            shards[shard].releaseSlots()
            return (source: take(&shards[shard], SymbolShard()), target: take(&other.shards[shard], SymbolShard()))
        }
        let size = (merges.map(\.source.count).max() ?? 0) << Self.shardBits
        var map = [Symbol](repeating: Symbol(raw: 0), count: size)
        // Each shard's strings write their own entries of the map (number << shardBits | shard),
        // in place: no list of a shard's symbols is held beside the map at the merge's peak.
        map.withUnsafeMutableBufferPointer { map in
            Parallel.forEach(&merges, threads: threads) { shard, merge in
                merge.target.intern(contentsOf: merge.source, hash: { Self.hash($0, key: key) }) { number, interned in
                    map[number << Self.shardBits | shard] = Self.symbol(interned, shard: shard)
                }
                merge.source = SymbolShard()
            }
        }
        other.shards = merges.map(\.target)
        return SymbolTranslation(map: map)
    }

    /// The translation of this table onto itself in which `rewrite` may give a string that holds
    /// `byte` another one (interned here when new), or nil when it gives none: how the state
    /// seals texts in place (`TextSealing`). Strings without `byte` are kept unasked.
    mutating func rewriting(
        stringsHolding byte: UInt8, _ rewrite: (Slice<GrowingArray<UInt8>>) -> [UInt8]?
    ) -> SymbolTranslation? {
        var rewritten: [(symbol: Symbol, bytes: [UInt8])] = []
        for (shard, strings) in shards.enumerated() {
            for number in strings.numbers(holding: byte) {
                let symbol = Self.symbol(number, shard: shard)
                if let other = rewrite(bytes(symbol)) { rewritten.append((symbol, other)) }
            }
        }
        guard !rewritten.isEmpty else { return nil }
        let size = (shards.map(\.count).max() ?? 0) << Self.shardBits
        var map = (0..<size).map { Symbol(raw: UInt32($0)) }
        for (symbol, bytes) in rewritten { map[Int(symbol.raw)] = intern(bytes) }
        return SymbolTranslation(map: map)
    }

    /// The hash of `bytes` and the shard it picks.
    private func place(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, shard: Int) {
        let hash = Self.hash(bytes, key: key)
        return (hash, Self.shard(of: hash))
    }

    private static func shard(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> (64 - shardBits))
    }

    private static func symbol(_ number: UInt32, shard: Int) -> Symbol {
        precondition(number < 1 << (32 - shardBits), "a symbol shard holds fewer than \(1 << (32 - shardBits)) strings")
        return Symbol(raw: number << shardBits | UInt32(truncatingIfNeeded: shard))
    }

    /// SipHash-1-3 under the process's random key: a keyed pseudo-random function, so no sender
    /// can make ids collide (the multiply-and-rotate hash it replaced had collisions whatever the
    /// seed: flip bit 63 of one eight-byte word and bit 28 of the next). Every output bit serves
    /// the shard, slot and tag.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, key: SipHash.Key) -> UInt64 {
        SipHash.hash(bytes, key: key)
    }
}

/// Maps the symbols of one table to those of another.
struct SymbolTranslation: Sendable {
    let map: [Symbol]

    subscript(_ symbol: Symbol) -> Symbol { map[Int(symbol.raw)] }

    subscript(_ symbol: Symbol?) -> Symbol? { symbol.map { map[Int($0.raw)] } }
}
