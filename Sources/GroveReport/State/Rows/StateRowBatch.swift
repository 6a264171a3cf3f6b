/// Rows written back to back into one buffer, each with its key's digest: a night's hundred
/// thousand rows cost one buffer and a small entry each. (Two arrays a row cost more in
/// allocation and reference counting than encoding the rows, measured.) Both grow in place
/// (`GrowingArray`): a Swift array's last doubling held the old and the new buffer at once, at
/// the peak of a night.
struct StateRowBatch {
    /// Where one row lies in `bytes`, under its key's digest: the lengths of its key and its
    /// value as varints, then the key and the value. (The lengths in the bytes rather than in
    /// the entry halve the entries: 24 MB of the peak of a night of 2M events.)
    struct Entry {
        var digest: Int64
        var start: Int
    }

    private(set) var bytes = GrowingArray<UInt8>()
    private(set) var entries = GrowingArray<Entry>()
    /// A row's lengths, written here before they join `bytes`.
    private var lengths: [UInt8] = []

    var count: Int { entries.count }

    /// Adds a row: its key (the first `keyCount` bytes of `row`), then its value.
    mutating func append(_ row: [UInt8], keyCount: Int, digest: StateKeyDigest) {
        append(row, keyCount: keyCount, keyDigest: row.withUnsafeBufferPointer { digest.of(UnsafeBufferPointer(rebasing: $0[..<keyCount])) })
    }

    /// Adds a row under its key's digest, taken already.
    mutating func append(_ row: [UInt8], keyCount: Int, keyDigest: Int64) {
        entries.append(Entry(digest: keyDigest, start: bytes.count))
        lengths.removeAll(keepingCapacity: true)
        Varint.append(UInt64(keyCount), to: &lengths)
        Varint.append(UInt64(row.count - keyCount), to: &lengths)
        lengths.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
        row.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
    }

    /// Adds the rows of `other`.
    mutating func append(contentsOf other: StateRowBatch) {
        let offset = bytes.count
        other.bytes.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
        for entry in other.entries { entries.append(Entry(digest: entry.digest, start: entry.start + offset)) }
    }

    /// Orders the rows by digest, a tie keeping their order: the order of the key index's run
    /// they make. A radix sort, least significant byte first, a pass for each byte that the
    /// digests do not all share (six of a digest's eight): a night of 2M events sorts a million
    /// rows, where comparisons through a closure cost a few times more.
    mutating func sortByDigest() {
        entries.withUnsafeMutableBufferPointer { entries in
            guard entries.count > 1, let base = entries.baseAddress else { return }
            let scratch = UnsafeMutablePointer<Entry>.allocate(capacity: entries.count)
            defer { scratch.deallocate() }
            var (source, target) = (base, scratch)
            var offsets = [Int](repeating: 0, count: 256)
            for byte in 0..<8 {
                offsets.withUnsafeMutableBufferPointer { offsets in
                    offsets.update(repeating: 0)
                    for index in 0..<entries.count { offsets[Self.digit(source[index], byte)] += 1 }
                    guard !offsets.contains(entries.count) else { return }
                    var start = 0
                    for digit in 0..<256 { (offsets[digit], start) = (start, start + offsets[digit]) }
                    for index in 0..<entries.count {
                        let digit = Self.digit(source[index], byte)
                        (target + offsets[digit]).initialize(to: source[index])
                        offsets[digit] += 1
                    }
                    swap(&source, &target)
                }
            }
            if source != base { base.update(from: source, count: entries.count) }
        }
    }

    /// Byte `byte` of an entry's digest, its sign flipped so that bytes order as digests do.
    private static func digit(_ entry: Entry, _ byte: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: entry.digest) ^ 1 << 63) >> (byte * 8)) & 0xFF
    }

    /// The rows, copied out, in entry order.
    var rows: [StateRows.Row] {
        var rows: [StateRows.Row] = []
        forEach { _, key, value in rows.append(StateRows.Row(key: Array(key), value: Array(value))) }
        return rows
    }

    /// Calls `body` with every row's digest, key and value, in entry order, without copying them.
    func forEach<Failure: Error>(
        _ body: (Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        try GrowingArray.withUnsafeBufferPointers([bytes]) { bytes throws(Failure) in
            for entry in entries { try Self.row(entry, in: bytes[0], body) }
        }
    }

    /// Calls `body` with every row of `batches` (each sorted by digest) in digest order, a tie
    /// going to the earlier batch: one run of the key index from batches encoded apart,
    /// without copying them into one.
    static func forEachInDigestOrder<Failure: Error>(
        _ batches: [StateRowBatch], _ body: (Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        try GrowingArray.withUnsafeBufferPointers(batches.map(\.bytes)) { bytes throws(Failure) in
            // The rows lie in the order they were encoded, so each one visited in digest order is
            // a cache miss: the row a few steps ahead is asked for while this one is read.
            try merged(batches.map(\.entries), upcoming: { source, entry in bytes[source].prefetch(entry.start) }) {
                source, entry throws(Failure) in try row(entry, in: bytes[source], body)
            }
        }
    }

    /// Calls `body` with each entry of `lists` (each sorted by digest) and the list it is from,
    /// in digest order, a tie going to the earlier list, and `upcoming` with the entry of that
    /// list `lookahead` places on. Over the lists' buffers: a night's million rows take a step each.
    static func merged<Failure: Error>(
        _ lists: [GrowingArray<Entry>], upcoming: (Int, Entry) -> Void = { _, _ in },
        _ body: (Int, Entry) throws(Failure) -> Void
    ) throws(Failure) {
        try GrowingArray.withUnsafeBufferPointers(lists) { lists throws(Failure) in
            var positions = [Int](repeating: 0, count: lists.count)
            while true {
                var least = -1
                var leastDigest = Int64.max
                for source in lists.indices where positions[source] < lists[source].count {
                    let digest = lists[source][positions[source]].digest
                    if least < 0 || digest < leastDigest { (least, leastDigest) = (source, digest) }
                }
                guard least >= 0 else { return }
                if positions[least] + Self.lookahead < lists[least].count { upcoming(least, lists[least][positions[least] + Self.lookahead]) }
                try body(least, lists[least][positions[least]])
                positions[least] += 1
            }
        }
    }

    /// How far ahead of a merge's step its next rows are asked for.
    private static let lookahead = 16

    /// The row at `entry` of a batch's `bytes`.
    private static func row<Failure: Error>(
        _ entry: Entry, in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        // Written by `append`, so whole.
        var position = entry.start
        let keyCount = Int(Varint.read(bytes, at: &position) ?? 0)
        let valueCount = Int(Varint.read(bytes, at: &position) ?? 0)
        let raw = UnsafeRawBufferPointer(bytes)
        let key = UnsafeRawBufferPointer(rebasing: raw[position..<position + keyCount])
        let value = UnsafeRawBufferPointer(rebasing: raw[position + keyCount..<position + keyCount + valueCount])
        try body(entry.digest, key, value)
    }
}
