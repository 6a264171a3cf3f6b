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
        let keyDigest = row.withUnsafeBufferPointer { digest.of(UnsafeBufferPointer(rebasing: $0[..<keyCount])) }
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

    /// Orders the rows by digest, the order of the key index's run they make.
    mutating func sortByDigest() {
        entries.sort { $0.digest < $1.digest }
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
        for entry in entries { try row(entry, body) }
    }

    /// Calls `body` with every row of `batches` (each sorted by digest) in digest order, a tie
    /// going to the earlier batch: one run of the key index from batches encoded apart,
    /// without copying them into one.
    static func forEachInDigestOrder<Failure: Error>(
        _ batches: [StateRowBatch], _ body: (Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        try merged(batches.map(\.entries)) { source, entry throws(Failure) in try batches[source].row(entry, body) }
    }

    /// Calls `body` with each entry of `lists` (each sorted by digest) and the list it is from,
    /// in digest order, a tie going to the earlier list.
    static func merged<Failure: Error>(_ lists: [GrowingArray<Entry>], _ body: (Int, Entry) throws(Failure) -> Void) throws(Failure) {
        var positions = [Int](repeating: 0, count: lists.count)
        while true {
            var least: (source: Int, entry: Entry)?
            for (source, list) in lists.enumerated() where positions[source] < list.count {
                let entry = list[positions[source]]
                if least.map({ entry.digest < $0.entry.digest }) ?? true { least = (source, entry) }
            }
            guard let (source, entry) = least else { return }
            try body(source, entry)
            positions[source] += 1
        }
    }

    /// Calls `body` with the digest, key and value of the row at `entry`.
    private func row<Failure: Error>(
        _ entry: Entry, _ body: (Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        var failure: Failure?
        bytes.withUnsafeBufferPointer { buffer in
            // Written by `append`, so whole.
            var position = entry.start
            let keyCount = Int(Varint.read(buffer, at: &position) ?? 0)
            let valueCount = Int(Varint.read(buffer, at: &position) ?? 0)
            let raw = UnsafeRawBufferPointer(buffer)
            let key = UnsafeRawBufferPointer(rebasing: raw[position..<position + keyCount])
            let value = UnsafeRawBufferPointer(rebasing: raw[position + keyCount..<position + keyCount + valueCount])
            do throws(Failure) {
                try body(entry.digest, key, value)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
