import CSQLite

/// An index of the state from key digests to targets (`StateIndexEntry`), kept as sorted runs
/// that are written once and merged a few at a time, as a log-structured merge tree does.
///
/// A B-tree keyed by digest (schema 4's `records_by_hash` and `links`) takes each night's new
/// digests at random places, so a night dirtied, wrote and logged most of its pages: a night's
/// cost grew with the state. Here a night writes one new run (its own entries, sorted, in chunks
/// of about `chunkBudget` bytes) and, when the `fanIn` newest runs are of about one size (or the
/// index has more than `mostRuns`), merges them into one; an entry is rewritten about log₄ of (all entries / a night's) times over the
/// state's life, each time in sequence. A lookup asks each run's Bloom filter and reads only the
/// chunk where a passing digest would lie (the run's fences, the first digest of every chunk,
/// say which).
final class StateIndex {
    /// What an index leads to, stored as `index_runs.kind`.
    enum Kind: Int64 {
        /// Record key digests to the ids of their rows.
        case recordKeys = 0
        /// Link digests (a click, a unit) to the digests of the records that name them.
        case links = 1
    }

    /// One sorted run: its chunks are `index_chunks` rows `firstChunk ..< firstChunk + fences.count`.
    private struct Run {
        var id: Int64
        var entries: Int
        var firstChunk: Int64
        /// The first digest of every chunk.
        var fences: [Int64]
        var filter: StateKeyFilter

        /// The chunks that may hold entries of `hash`: from the last one starting below it (its
        /// entries may run on) through the last one starting at or below it.
        func chunks(of hash: Int64) -> ClosedRange<Int> {
            let below = fences.firstIndex(past: { $0 < hash })
            let through = fences.firstIndex(past: { $0 <= hash })
            return max(below - 1, 0)...max(through - 1, 0)
        }
    }

    /// The bytes a chunk is filled to (`StateIndexEntry.encode`): four fill a 4 KiB page. 160
    /// entries whatever their widths left a third of the pages of merged runs (nine bytes an
    /// entry: two chunks a page) empty.
    static let chunkBudget = 1_000
    static let fanIn = 4
    /// The runs an index keeps at most.
    static let mostRuns = 8

    private static func ofAboutOneSize(_ runs: some Collection<Run>) -> Bool {
        let sizes = runs.map(\.entries)
        return (sizes.max() ?? 0) <= 2 * (sizes.min() ?? 0)
    }

    let kind: Kind
    private let connection: SQLiteConnection
    /// The runs, oldest first; read at first use.
    private var loadedRuns: [Run]?
    /// The run the latest `add` wrote, while no merge has taken it in: a night's own entries,
    /// which its loads pass by (`entries(of:exceptLatestAdded:)`).
    private var latestAdded: Int64?

    init(kind: Kind, connection: SQLiteConnection) {
        self.kind = kind
        self.connection = connection
    }

    /// The tables of every index (as schema 5 had them, whose chunks held fixed-width entries).
    static let tables = """
        CREATE TABLE index_runs (
            id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, entries INTEGER NOT NULL, capacity INTEGER NOT NULL,
            first_chunk INTEGER NOT NULL, fences BLOB NOT NULL, filter BLOB NOT NULL);
        CREATE TABLE index_chunks (id INTEGER PRIMARY KEY, entries BLOB NOT NULL);
        """

    // MARK: Reading

    /// Every entry under one of `hashes` (each run's in its order), once per run that holds it;
    /// `exceptLatestAdded`, not those of the run the latest `add` wrote while it stands alone.
    func entries(of hashes: consuming [Int64], exceptLatestAdded: Bool = false) throws(SQLiteError) -> [StateIndexEntry] {
        var wanted = hashes
        wanted.radixSort()
        wanted.removeDuplicates()
        var found: [StateIndexEntry] = []
        for run in try runs() where !(exceptLatestAdded && run.id == latestAdded) {
            let probes = wanted.filter { run.filter.mightContain($0) }
            guard let first = probes.first, let last = probes.last else { continue }
            // Digests in order: the chunks a run is asked for come in order, each read once. A
            // night's keys ask for most chunks of a run: those are stepped through in one scan,
            // which costs less than a lookup a chunk.
            let span = run.chunks(of: first).lowerBound...run.chunks(of: last).upperBound
            var reader = try ChunkReader(of: run, span: span, scanning: probes.count * Self.probesPerScannedChunk >= span.count, index: self)
            for hash in probes {
                for index in run.chunks(of: hash) { try reader.chunk(index).appendEntries(of: hash, to: &found) }
            }
            reader.finish()
        }
        return found
    }

    /// The chunks with ids in a range, in order.
    private static let chunksInOrder = "SELECT id, entries FROM index_chunks WHERE id BETWEEN ? AND ? ORDER BY id"

    /// Probes a chunk of a run's span at which the run is scanned rather than looked up by chunk.
    private static let probesPerScannedChunk = 8

    /// A run's chunks, asked for in order: read one by one, or stepped through by one scan.
    private struct ChunkReader {
        let run: Run
        let index: StateIndex
        let scan: SQLiteStatement?
        var current: (index: Int, chunk: StateIndexEntry.Chunk)?

        init(of run: Run, span: ClosedRange<Int>, scanning: Bool, index: StateIndex) throws(SQLiteError) {
            self.run = run
            self.index = index
            scan = scanning
                ? try index.connection.prepare(StateIndex.chunksInOrder)
                    .bind([.integer(run.firstChunk + Int64(span.lowerBound)), .integer(run.firstChunk + Int64(span.upperBound))])
                : nil
        }

        mutating func chunk(_ position: Int) throws(SQLiteError) -> StateIndexEntry.Chunk {
            if let current, current.index == position { return current.chunk }
            let id = run.firstChunk + Int64(position)
            let chunk: StateIndexEntry.Chunk
            if let scan {
                var step = try scan.step()
                while step, scan.integer(0) < id { step = try scan.step() }
                guard step, scan.integer(0) == id, let read = StateIndexEntry.Chunk(scan.blob(1)) else {
                    throw StateIndex.damage("an index chunk is missing or cut")
                }
                chunk = read
            } else {
                chunk = try index.read(chunk: id)
            }
            current = (position, chunk)
            return chunk
        }

        func finish() { scan?.reset() }
    }

    private func runs() throws(SQLiteError) -> [Run] {
        if let loadedRuns { return loadedRuns }
        let select = try connection.prepare(
            "SELECT id, entries, capacity, first_chunk, fences, filter FROM index_runs WHERE kind = ? ORDER BY id"
        ).bind([.integer(kind.rawValue)])
        var runs: [Run] = []
        while try select.step() {
            let entries = Int(select.integer(1))
            let fenceBytes = select.blob(4)
            guard entries >= 0, fenceBytes.count % 8 == 0, (entries == 0) == fenceBytes.isEmpty, fenceBytes.count / 8 <= entries,
                  let filter = StateKeyFilter(capacity: Int(select.integer(2)), bytes: select.blob(5))
            else {
                throw Self.damage("an index run does not fit its entries")
            }
            let fences = stride(from: 0, to: fenceBytes.count, by: 8).map { offset in
                fenceBytes[offset..<offset + 8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
            }
            runs.append(Run(id: select.integer(0), entries: entries, firstChunk: select.integer(3), fences: fences, filter: filter))
        }
        loadedRuns = runs
        return runs
    }

    /// Statements prepared at first use, by their SQL.
    private var prepared: [String: SQLiteStatement] = [:]

    private func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = prepared[sql] { return statement }
        let statement = try connection.prepare(sql)
        prepared[sql] = statement
        return statement
    }

    private func read(chunk id: Int64) throws(SQLiteError) -> StateIndexEntry.Chunk {
        let select = try statement("SELECT entries FROM index_chunks WHERE id = ?")
        try select.bind([.integer(id)])
        guard try select.step(), let entries = StateIndexEntry.Chunk(select.blob(0)) else {
            throw Self.damage("an index chunk is missing or cut")
        }
        select.reset()
        return entries
    }

    // MARK: Writing

    /// Adds `entries` as a new run (sorted, repeats dropped), then merges the `fanIn` newest runs
    /// while they are of about one size (the largest at most twice the smallest), or while there
    /// are more than `mostRuns`.
    ///
    /// Size classes by powers of `fanIn` (schema 5) never merged nights whose sizes straddle a
    /// class boundary, so runs, and the lookups of every night, piled up; runs within a factor
    /// of two of each other merge whatever their sizes, and the cap bounds a night's lookups
    /// when nights differ more than that.
    func add(_ entries: consuming [StateIndexEntry]) throws(SQLiteError) {
        guard !entries.isEmpty else { return }
        var runs = try runs()
        // Sorted in place: a night of 2M events adds millions.
        var sorted = entries
        sorted.radixSort()
        runs.append(try write(sorted, capacity: sorted.count))
        latestAdded = runs.last?.id
        while runs.count >= Self.fanIn, Self.ofAboutOneSize(runs.suffix(Self.fanIn)) || runs.count > Self.mostRuns {
            latestAdded = nil
            let merged = try merge(Array(runs.suffix(Self.fanIn)))
            runs.removeLast(Self.fanIn)
            runs.append(merged)
        }
        loadedRuns = runs
    }

    /// Replaces every run by one of `entries` (sorted, repeats dropped): what `state --compact`
    /// writes.
    func replaceAll(with entries: [StateIndexEntry]) throws(SQLiteError) {
        latestAdded = nil
        for run in try runs() { try delete(run) }
        loadedRuns = entries.isEmpty ? [] : [try write(entries.sorted(), capacity: entries.count)]
    }

    /// Every run merged into one (repeated links dropped).
    func mergeAll() throws(SQLiteError) {
        let runs = try runs()
        guard runs.count > 1 else { return }
        latestAdded = nil
        loadedRuns = [try merge(runs)]
    }

    /// Merges `runs` (a batch of chunks at a time, so memory stays that of a batch a run) into
    /// a new run, and deletes them. A batch is deleted once passed, so the merged run's pages
    /// are mostly those the inputs freed, and a merge leaves the file about as large as it
    /// found it.
    private func merge(_ runs: [Run]) throws(SQLiteError) -> Run {
        var cursors: [MergeCursor] = []
        for run in runs where !run.fences.isEmpty {
            var cursor = MergeCursor(firstChunk: run.firstChunk, chunks: run.fences.count)
            try advance(&cursor)
            cursors.append(cursor)
        }
        var merged: [StateIndexEntry] = []
        let run = try write(capacity: runs.reduce(0) { $0 + $1.entries }) { () throws(SQLiteError) -> [StateIndexEntry]? in
            cursors.removeAll { $0.entries.isEmpty }
            // Every entry up to the least of the batches' last ones is in a batch read: those
            // are merged and handed over as one batch, and a batch passed makes way for the next.
            guard let bound = cursors.lazy.compactMap(\.entries.last).min() else { return nil }
            merged.removeAll(keepingCapacity: true)
            for index in cursors.indices {
                let (start, entries) = (cursors[index].position, cursors[index].entries)
                let end = entries[start...].firstIndex(past: { $0 <= bound })
                merged += entries[start..<end]
                cursors[index].position = end
            }
            for index in cursors.indices where cursors[index].position == cursors[index].entries.count {
                try advance(&cursors[index])
            }
            // Runs in order, merged by the sort's merging of runs it finds.
            merged.sort()
            return merged
        }
        for old in runs { try delete(old) }
        return run
    }

    /// Where a merge stands in one run: the entries of its current batch of chunks, decoded.
    private struct MergeCursor {
        let firstChunk: Int64
        let chunks: Int
        /// The chunks read so far, the last `batch` of them into `entries`.
        var read = 0
        var batch = 0
        var entries: [StateIndexEntry] = []
        var position = 0

        init(firstChunk: Int64, chunks: Int) {
            self.firstChunk = firstChunk
            self.chunks = chunks
        }
    }

    /// Chunks a merge reads with one statement, and deletes with one once passed (a statement
    /// each way a chunk was a third of a backfill night's merge).
    static let mergeBatch = 32

    /// Deletes the cursor's batch of chunks, passed, and reads the run's next batch (none past
    /// its last chunk).
    private func advance(_ cursor: inout MergeCursor) throws(SQLiteError) {
        if cursor.batch > 0 {
            let end = cursor.firstChunk + Int64(cursor.read)
            try deleteChunks(end - Int64(cursor.batch), through: end - 1)
        }
        cursor.entries.removeAll(keepingCapacity: true)
        cursor.position = 0
        cursor.batch = min(Self.mergeBatch, cursor.chunks - cursor.read)
        guard cursor.batch > 0 else { return }
        var expected = cursor.firstChunk + Int64(cursor.read)
        let select = try statement(Self.chunksInOrder).bind([.integer(expected), .integer(expected + Int64(cursor.batch) - 1)])
        defer { select.reset() }
        while try select.step() {
            guard select.integer(0) == expected, let chunk = StateIndexEntry.Chunk(select.blob(1)) else {
                throw Self.damage("an index chunk is missing or cut")
            }
            chunk.appendAll(to: &cursor.entries)
            expected += 1
        }
        guard expected == cursor.firstChunk + Int64(cursor.read + cursor.batch) else { throw Self.damage("an index chunk is missing or cut") }
        cursor.read += cursor.batch
    }

    /// Writes a run of sorted `entries`, repeats dropped, in chunks after the last stored one.
    private func write(_ entries: [StateIndexEntry], capacity: Int) throws(SQLiteError) -> Run {
        var given = false
        return try write(capacity: capacity) { () throws(SQLiteError) -> [StateIndexEntry]? in
            defer { given = true }
            return given ? nil : entries
        }
    }

    /// Writes a run of the entries of the batches `nextBatch` gives until nil (each sorted,
    /// each after the one before), repeats dropped, in chunks after the last stored one, with
    /// a filter sized for `capacity`. Batches, not an entry a call: a merge writes millions.
    private func write(capacity: Int, _ nextBatch: () throws(SQLiteError) -> [StateIndexEntry]?) throws(SQLiteError) -> Run {
        let firstChunk = try connection.integer("SELECT coalesce(max(id), 0) + 1 FROM index_chunks")
        let insertChunk = try connection.prepare("INSERT INTO index_chunks (id, entries) VALUES (?, ?)")
        var filter = StateKeyFilter(capacity: capacity)
        var fences: [Int64] = []
        var chunk: [StateIndexEntry] = []
        // The least and most target of the chunk (its digests are in order).
        var targets = (least: Int64.max, most: Int64.min)
        var count = 0
        func flush() throws(SQLiteError) {
            guard let first = chunk.first else { return }
            try insertChunk.run([.integer(firstChunk + Int64(fences.count)), .blob(StateIndexEntry.encode(chunk))])
            fences.append(first.hash)
            chunk.removeAll(keepingCapacity: true)
            targets = (.max, .min)
        }
        var previous: StateIndexEntry?
        while let batch = try nextBatch() {
            for entry in batch {
                guard entry != previous else { continue }
                previous = entry
                filter.add(entry.hash)
                if let first = chunk.first {
                    let least = min(targets.least, entry.target)
                    let most = max(targets.most, entry.target)
                    let width = StateIndexEntry.Chunk.width(UInt64(bitPattern: entry.hash &- first.hash))
                        + StateIndexEntry.Chunk.width(UInt64(bitPattern: most &- least))
                    if StateIndexEntry.Chunk.headerSize + (chunk.count + 1) * width > Self.chunkBudget { try flush() }
                }
                chunk.append(entry)
                targets = (min(targets.least, entry.target), max(targets.most, entry.target))
                count += 1
            }
        }
        try flush()
        var fenceBytes: [UInt8] = []
        fenceBytes.reserveCapacity(8 * fences.count)
        for fence in fences { withUnsafeBytes(of: fence.littleEndian) { fenceBytes.append(contentsOf: $0) } }
        try connection.prepare(
            "INSERT INTO index_runs (kind, entries, capacity, first_chunk, fences, filter) VALUES (?, ?, ?, ?, ?, ?)"
        ).run([.integer(kind.rawValue), .integer(Int64(count)), .integer(Int64(filter.capacity)), .integer(firstChunk),
               .blob(fenceBytes), .blob(filter.bytes)])
        let id = try connection.integer("SELECT last_insert_rowid()")
        return Run(id: id, entries: count, firstChunk: firstChunk, fences: fences, filter: filter)
    }

    private func delete(_ run: Run) throws(SQLiteError) {
        try deleteChunks(run.firstChunk, through: run.firstChunk + Int64(run.fences.count) - 1)
        try connection.prepare("DELETE FROM index_runs WHERE id = ?").run([.integer(run.id)])
    }

    /// Deletes the chunks `first` through `last`.
    private func deleteChunks(_ first: Int64, through last: Int64) throws(SQLiteError) {
        try statement("DELETE FROM index_chunks WHERE id BETWEEN ? AND ?").run([.integer(first), .integer(last)])
    }

    private static func damage(_ reason: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: reason)
    }
}
