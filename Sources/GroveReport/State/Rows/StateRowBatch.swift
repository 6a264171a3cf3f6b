/// Rows written back to back into one buffer, each with its key's digest: a night's hundred
/// thousand rows cost one buffer and a small entry each. (Two arrays a row cost more in
/// allocation and reference counting than encoding the rows, measured.)
struct StateRowBatch {
    /// Where one row lies in `bytes`: its key, then its value.
    struct Entry {
        var digest: Int64
        var start: Int
        var keyCount: Int
        var valueCount: Int
    }

    private(set) var bytes: [UInt8] = []
    private(set) var entries: [Entry] = []

    var count: Int { entries.count }

    /// Adds a row: its key (the first `keyCount` bytes of `row`), then its value.
    mutating func append(_ row: [UInt8], keyCount: Int, digest: StateKeyDigest) {
        let keyDigest = row.withUnsafeBufferPointer { digest.of(UnsafeBufferPointer(rebasing: $0[..<keyCount])) }
        entries.append(Entry(digest: keyDigest, start: bytes.count, keyCount: keyCount, valueCount: row.count - keyCount))
        bytes.append(contentsOf: row)
    }

    /// Adds the rows of `other`.
    mutating func append(contentsOf other: StateRowBatch) {
        let offset = bytes.count
        bytes.append(contentsOf: other.bytes)
        entries.append(contentsOf: other.entries.lazy.map { entry in
            var moved = entry
            moved.start += offset
            return moved
        })
    }

    /// Orders the rows by digest, the order of the key index's run they make.
    mutating func sortByDigest() {
        entries.sort { $0.digest < $1.digest }
    }

    /// The rows, copied out, in entry order.
    var rows: [StateRows.Row] {
        entries.map { entry in
            let key = entry.start..<entry.start + entry.keyCount
            return StateRows.Row(key: Array(bytes[key]), value: Array(bytes[key.upperBound..<key.upperBound + entry.valueCount]))
        }
    }

    /// Calls `body` with every row's digest, key and value, in entry order, without copying them.
    func forEach<Failure: Error>(
        _ body: (Int64, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        var failure: Failure?
        bytes.withUnsafeBytes { raw in
            for entry in entries {
                let key = UnsafeRawBufferPointer(rebasing: raw[entry.start..<entry.start + entry.keyCount])
                let valueStart = entry.start + entry.keyCount
                let value = UnsafeRawBufferPointer(rebasing: raw[valueStart..<valueStart + entry.valueCount])
                do throws(Failure) {
                    try body(entry.digest, key, value)
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
    }
}
