/// Record rows stored together as one SQLite row (`records.rows`), up to `capacity` of them and
/// `budget` bytes: a varint count, then each row as a varint length and its key, a varint length
/// and its value. A row is found by its *address*, the block's id times `capacity` plus its slot,
/// which is what the key index holds.
///
/// A night's 100k rows of about 41 bytes as as many SQLite rows cost a rowid, a cell pointer and
/// a record header each, and an insert each; in blocks of about a kilobyte, four to a 4 KiB page
/// with little left over, they cost two length bytes a row and an insert a block. A deleted row
/// (compaction) leaves an empty key in its slot, so the other slots keep their addresses; real
/// keys start with their kind's byte.
enum StateRowBlock {
    static let capacity = 32
    /// The bytes a block is filled to: four such cells and their pointers fill a 4 KiB page.
    static let budget = 1_000

    /// The block of an address, and its slot.
    static func block(of address: Int64) -> Int64 { address / Int64(capacity) }
    static func slot(of address: Int64) -> Int { Int(address % Int64(capacity)) }
    static func address(block: Int64, slot: Int) -> Int64 { block * Int64(capacity) + Int64(slot) }

    /// A block being filled, row by row.
    struct Builder {
        private(set) var count = 0
        /// The count's byte (a count up to `capacity` is a one-byte varint), then the rows.
        private var body: [UInt8] = [0]

        /// Whether a row of these lengths still fits (a first row always does).
        func fits(keyCount: Int, valueCount: Int) -> Bool {
            count == 0 || (count < StateRowBlock.capacity && body.count + keyCount + valueCount + 3 <= StateRowBlock.budget)
        }

        mutating func append(key: some Collection<UInt8>, value: some Collection<UInt8>) {
            Varint.append(UInt64(key.count), to: &body)
            append(key)
            Varint.append(UInt64(value.count), to: &body)
            append(value)
            count += 1
        }

        /// Copies `bytes` in one move when they are contiguous (raw bytes would otherwise be
        /// appended one by one: a few per cent of a night that writes a million rows).
        private mutating func append(_ bytes: some Collection<UInt8>) {
            let copied: Void? = bytes.withContiguousStorageIfAvailable { body.append(contentsOf: $0) }
            if copied == nil { body.append(contentsOf: bytes) }
        }

        /// Hands the block as stored to `write`, then starts anew in the same buffer: a night
        /// writes tens of thousands of blocks, and a new buffer each grew by doubling.
        mutating func flush<Failure: Error>(_ write: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
            body[0] = UInt8(count)
            try write(body)
            body.removeAll(keepingCapacity: true)
            body.append(0)
            count = 0
        }

        /// The block as stored; the builder starts anew.
        mutating func take() -> [UInt8] {
            body[0] = UInt8(count)
            defer {
                body = [0]
                count = 0
            }
            return body
        }
    }

    /// The rows of a block by slot, a deleted one with an empty key; nil when the bytes are not
    /// exactly the rows they count (damage).
    static func decode(_ bytes: [UInt8]) -> [StateRows.Row]? {
        bytes.withUnsafeBufferPointer { buffer -> [StateRows.Row]? in
            var position = 0
            guard let count = Varint.read(buffer, at: &position), count <= UInt64(capacity) else { return nil }
            var rows: [StateRows.Row] = []
            rows.reserveCapacity(Int(count))
            func part() -> [UInt8]? {
                guard let length = Varint.read(buffer, at: &position), length <= UInt64(buffer.count - position) else { return nil }
                defer { position += Int(length) }
                return Array(buffer[position..<position + Int(length)])
            }
            for _ in 0..<count {
                guard let key = part(), let value = part() else { return nil }
                rows.append(StateRows.Row(key: key, value: value))
            }
            return position == buffer.count ? rows : nil
        }
    }

    /// Calls `body` with the slot, key and value of each of `slots` (ascending; a repeated one
    /// once) of a block, stepping over the rows between without copying them: a night reads one
    /// or two rows of most blocks it reads. False when the bytes are not the rows they count
    /// (damage) or a slot is past the block's count.
    static func visit(
        _ bytes: UnsafeRawBufferPointer, slots: some Sequence<Int>,
        _ body: (Int, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        let buffer = bytes.assumingMemoryBound(to: UInt8.self)
        var position = 0
        guard let count = Varint.read(buffer, at: &position), count <= UInt64(capacity) else { return false }
        var slot = 0
        func part() -> UnsafeRawBufferPointer? {
            guard let length = Varint.read(buffer, at: &position), length <= UInt64(buffer.count - position) else { return nil }
            defer { position += Int(length) }
            return UnsafeRawBufferPointer(rebasing: bytes[position..<position + Int(length)])
        }
        for wanted in slots where wanted >= slot {
            guard wanted < count else { return false }
            while slot < wanted {
                guard part() != nil, part() != nil else { return false }
                slot += 1
            }
            guard let key = part(), let value = part() else { return false }
            body(slot, key, value)
            slot += 1
        }
        return true
    }

    /// `block` with the rows in `slots` deleted (their keys and values emptied).
    static func deleting(slots: [Int], from block: [UInt8]) -> [UInt8]? {
        guard let rows = decode(block), slots.allSatisfy({ $0 < rows.count }) else { return nil }
        var builder = Builder()
        for (index, row) in rows.enumerated() {
            let deleted = slots.contains(index)
            builder.append(key: deleted ? [] : row.key, value: deleted ? [] : row.value)
        }
        return builder.take()
    }
}
