import CSQLite

/// One run's hold on a state file: opened, locked for writing (`BEGIN IMMEDIATE`, so a second
/// writer waits for `--lock-wait` and then fails busy), and changed in one transaction that
/// `commit()` ends. Closing or dropping the store without committing rolls everything back.
///
/// The file is opened for writing only once `StateFile.inspect` has found, reading alone, that it
/// is a grove-report state; a missing file becomes a new state made whole under a temporary name
/// (`StateFile.create`), so no file is ever half a state.
final class StateStore {
    let path: String
    private let connection: SQLiteConnection
    private var open = true
    private var closed = false
    /// The random salt of email hashes, made when the state was created.
    private(set) var salt: [UInt8] = []
    /// The keyed digest of record keys and links, keyed from the salt (read first).
    private(set) lazy var digest = StateKeyDigest(salt: salt)

    /// Statements prepared once per run and reused for every key.
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (creating when missing) and locks the state at `path`.
    convenience init(path: String, lockWaitSeconds: Double) throws(StateError) {
        // A newer schema or a file that is no state is a usage error, which outranks a busy
        // state (exit 2 before 75): reading them takes no lock.
        if try StateFile.inspect(path, lockWaitSeconds: lockWaitSeconds) == .missing {
            try StateFile.create(path) { temporary throws(StateError) in
                let store = try StateStore(file: temporary, path: path, lockWaitSeconds: 0, creating: true)
                try store.commit()
                _ = store.close()
            }
            // Made by this run or, meanwhile, by another: it must be a state now.
            guard try StateFile.inspect(path, lockWaitSeconds: lockWaitSeconds) != .missing else {
                throw .cannotWrite(path: path, reason: "it vanished as it was created")
            }
        }
        try self.init(file: path, path: path, lockWaitSeconds: lockWaitSeconds, creating: false)
    }

    /// Opens and locks `file`, told as `path` in messages: an existing state, or (`creating`) a
    /// new empty file that gets the schema, in SQLite's rollback journal so that it is whole in
    /// the one file when its transaction commits.
    private init(file: String, path: String, lockWaitSeconds: Double, creating: Bool) throws(StateError) {
        self.path = path
        do {
            connection = try SQLiteConnection(path: file, mode: creating ? .create : .readWrite)
        } catch {
            throw error.isDamage ? .damaged(path: path, reason: error.message) : .cannotWrite(path: path, reason: error.message)
        }
        connection.setBusyTimeout(seconds: lockWaitSeconds)
        try mapping { () throws(SQLiteError) in
            // WAL: readers (`grove-report state`, the sqlite3 shell) never block the nightly writer.
            if !creating { try connection.execute("PRAGMA journal_mode = WAL") }
            // 4 MiB of page cache: a night appends its rows and reads its keys as sorted
            // batches, so each page is wanted about once; a larger cache would only grow the
            // memory of late nights (the kernel's page cache serves the rereads).
            try connection.execute("PRAGMA cache_size = -4096")
            try connection.execute("PRAGMA temp_store = MEMORY")
            // Incremental vacuum lets a night give back the pages its merges freed (`commit`);
            // 16 KiB pages because a night reads most pages of its rows and index, each page
            // one read from the file system: a quarter of the reads, and of the pages a commit's
            // vacuum moves. SQLite takes both only before the file's first page is written.
            if creating { try connection.execute("PRAGMA page_size = 16384; PRAGMA auto_vacuum = INCREMENTAL") }
            try connection.execute("BEGIN IMMEDIATE")
        }
        if !creating, try mapping({ () throws(SQLiteError) in try connection.integer("PRAGMA user_version") }) == 0 {
            throw .notAState(path: path, reason: "no grove-report schema")
        }
        try migrate()
    }

    deinit { _ = close() }

    /// Ends the store's use of the file: rolls back what was not committed, folds SQLite's log
    /// back into the file and closes it. Returns a warning when the log could not be folded (a
    /// full disk): the state is then whole only with its `-wal` and `-shm` files.
    func close() -> StateWarning? {
        guard !closed else { return nil }
        closed = true
        statements = [:]
        if open {
            try? connection.execute("ROLLBACK")
            open = false
        }
        let failure = connection.checkpoint()
        connection.close()
        return failure.map { .logNotFolded(path: path, reason: $0.message) }
    }

    /// Runs SQLite work, turning its errors into the state's.
    func mapping<T>(_ body: () throws(SQLiteError) -> T) throws(StateError) -> T {
        do {
            return try body()
        } catch {
            if error.isBusy { throw StateError.busy(path: path) }
            if error.isDamage { throw StateError.damaged(path: path, reason: error.message) }
            throw StateError.cannotWrite(path: path, reason: error.message)
        }
    }

    /// Creates the schema in a new file, reads the salt and keys the digests with it, and
    /// migrates an older schema (a newer one is refused).
    private func migrate() throws(StateError) {
        let version = try mapping { () throws(SQLiteError) in try connection.integer("PRAGMA user_version") }
        if version > StateSchema.version { throw .newerSchema(path: path, version: Int(version)) }
        if version == 0 {
            let tables = try mapping { () throws(SQLiteError) in try connection.integer("SELECT count(*) FROM sqlite_master") }
            guard tables == 0 else { throw .notAState(path: path, reason: "it holds other tables") }
            try mapping { () throws(SQLiteError) in
                try connection.execute(StateSchema.creation)
                try connection.prepare("INSERT INTO meta (name, value) VALUES ('email_salt', ?)")
                    .run([.text(HexText.encode(SHA256Digest.randomBytes(32)))])
            }
        }
        let saltHex = try mapping { () throws(SQLiteError) -> String in
            let statement = try connection.prepare("SELECT value FROM meta WHERE name = 'email_salt'")
            return try statement.step() ? statement.text(0) : ""
        }
        salt = Array(saltHex.utf8)
        guard !salt.isEmpty else { throw .notAState(path: path, reason: "no email salt") }
        digest = StateKeyDigest(salt: salt)
        if version == 1 {
            try mapping { () throws(SQLiteError) in try StateMigration.fromVersion1(connection) }
        }
        if version == 1 || version == 2 { try StateMigration.fromVersion2(connection, store: self) }
        if version == 3 { try StateMigration.fromVersion3(connection, store: self) }
        if version == 4 { try StateMigration.fromVersion4(connection, store: self) }
        if version == 5 { try StateMigration.fromVersion5(connection, store: self) }
        if version == 6 { try StateMigration.fromVersion6(connection, store: self) }
    }

    /// Makes every change of this run durable at once.
    func commit() throws(StateError) {
        for statement in statements.values { statement.reset() }
        try mapping { () throws(SQLiteError) in
            // The pages the night's index merges and compaction freed go back to the file system
            // (a state made before schema 6 has no incremental vacuum: a no-op until
            // `state --compact` turns it on).
            try connection.execute("PRAGMA incremental_vacuum; COMMIT")
        }
        open = false
    }

    // MARK: The input ledger

    /// An input the state has ingested.
    struct LedgerEntry: Equatable {
        var run: Int
        var name: String?
        var sha256: String
        var lines: Int
    }

    func ingested(sha256: String) throws(StateError) -> LedgerEntry? {
        try ledger("SELECT run_id, name, sha256, lines FROM inputs WHERE sha256 = ?", sha256)
    }

    /// The latest input ingested under `name`.
    func ingested(name: String) throws(StateError) -> LedgerEntry? {
        try ledger("SELECT run_id, name, sha256, lines FROM inputs WHERE name = ? ORDER BY run_id DESC LIMIT 1", name)
    }

    private func ledger(_ sql: String, _ value: String) throws(StateError) -> LedgerEntry? {
        try mapping { () throws(SQLiteError) -> LedgerEntry? in
            let statement = try connection.prepare(sql).bind([.text(value)])
            guard try statement.step() else { return nil }
            return LedgerEntry(
                run: Int(statement.integer(0)), name: statement.isNull(1) ? nil : statement.text(1),
                sha256: statement.text(2), lines: Int(statement.integer(3)))
        }
    }

    // MARK: Runs

    /// The id the next recorded run gets.
    func nextRunID() throws(StateError) -> Int {
        try mapping { () throws(SQLiteError) in Int(try connection.integer("SELECT coalesce(max(id), 0) + 1 FROM runs")) }
    }

    /// `runs.status`: whether a run's reports were written.
    enum RunStatus: String {
        /// The run's changes are in the state, its reports not yet written (or never: a full
        /// `--out`, a kill); the next run writes reports and lists its changes too.
        case committed
        /// The run's reports were written, after its commit.
        case succeeded
    }

    /// The latest run whose reports were written, nil before the first: `changes.csv` lists
    /// what moved since then, so a night whose reports were lost is not lost from it.
    func lastReportedRunID() throws(StateError) -> Int? {
        let id = try mapping { () throws(SQLiteError) in
            try connection.integer("SELECT coalesce(max(id), 0) FROM runs WHERE status = '\(RunStatus.succeeded.rawValue)'")
        }
        return id > 0 ? Int(id) : nil
    }

    /// Records, after the commit, that run `id`'s reports were written. Does not wait: a run
    /// that took the write lock meanwhile holds it for its whole night.
    func markReported(run id: Int) throws(StateError) {
        connection.setBusyTimeout(seconds: 0)
        try mapping { () throws(SQLiteError) in
            try connection.prepare("UPDATE runs SET status = ? WHERE id = ?")
                .run([.text(RunStatus.succeeded.rawValue), .integer(Int64(id))])
        }
    }

    func recordRun(_ run: StateRunRecord) throws(StateError) {
        try mapping { () throws(SQLiteError) in
            try connection.prepare(
                "INSERT INTO runs (id, started, options, status, lines, rejected, records_read) VALUES (?, ?, ?, ?, ?, ?, ?)"
            ).run([.integer(Int64(run.id)), .text(run.started), .text(run.options), .text(RunStatus.committed.rawValue),
                   .integer(Int64(run.lines)), .integer(Int64(run.rejected)), .integer(Int64(run.recordsRead))])
            let insert = try connection.prepare("INSERT INTO inputs (run_id, name, sha256, size, lines) VALUES (?, ?, ?, ?, ?)")
            for input in run.inputs where input.status == .ingested {
                try insert.run([.integer(Int64(run.id)), input.file == "-" ? .null : .text(input.file),
                                .text(input.sha256), .integer(Int64(input.size)), .integer(Int64(input.lines))])
            }
        }
    }

    // MARK: Per-key records and their indexes

    /// The statement for `sql`, prepared on first use.
    private func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let prepared = statements[sql] { return prepared }
        let prepared = try connection.prepare(sql)
        statements[sql] = prepared
        return prepared
    }

    /// The address of the last record row stored (`StateRowBlock`): a run reads rows up to it,
    /// never its own.
    func lastRecordID() throws(StateError) -> Int64 {
        let block = try mapping { () throws(SQLiteError) in try connection.integer("SELECT coalesce(max(id), 0) FROM records") }
        return block == 0 ? 0 : StateRowBlock.address(block: block, slot: StateRowBlock.capacity - 1)
    }

    /// One stored row of a record: a record is the merge of all the rows under its key. `id` is
    /// its address (`StateRowBlock`).
    struct RecordRow {
        var id: Int64
        var digest: Int64
        var key: [UInt8]
        var value: [UInt8]
    }

    /// The rows of every record whose key has one of `hashes`, up to address `last`, in address
    /// order (a key's rows in the order they were stored). The key index gives their addresses
    /// and digests; their blocks are read in order, page by page, and only the wanted rows of a
    /// block are copied out.
    func recordRows(hashes: [Int64], through last: Int64) throws(StateError) -> [RecordRow] {
        var entries = try mapping { () throws(SQLiteError) in try recordIndex.entries(of: hashes) }.filter { $0.target <= last }
        entries.sort { $0.target < $1.target }
        var blockIDs = entries.map { StateRowBlock.block(of: $0.target) }
        blockIDs.removeDuplicates()
        var rows: [RecordRow] = []
        rows.reserveCapacity(entries.count)
        var next = 0
        try mapping { () throws(SQLiteError) in
            let select = try statement("SELECT r.id, r.rows FROM json_each(?) w CROSS JOIN records r ON r.id = w.value")
                .bind([.text(Self.jsonArray(blockIDs))])
            defer { select.reset() }
            while try select.step() {
                let block = select.integer(0)
                // A block the index names but the table lacks gives no rows, as a deleted row.
                while next < entries.count, StateRowBlock.block(of: entries[next].target) < block { next += 1 }
                let first = next
                while next < entries.count, StateRowBlock.block(of: entries[next].target) == block { next += 1 }
                var wanted = entries[first..<next].makeIterator()
                let whole = StateRowBlock.visit(select.blobInPlace(1), slots: entries[first..<next].lazy.map { StateRowBlock.slot(of: $0.target) }) {
                    slot, key, value in
                    // The entry of this slot: slots come in the entries' order, a repeat once.
                    let address = StateRowBlock.address(block: block, slot: slot)
                    var entry = wanted.next()
                    while let passed = entry, passed.target < address { entry = wanted.next() }
                    // A deleted row (compaction) leaves an empty key.
                    guard let entry, !key.isEmpty else { return }
                    rows.append(RecordRow(id: address, digest: entry.hash, key: Array(key), value: Array(value)))
                }
                guard whole else { throw Self.damagedBlock }
            }
        }
        return rows
    }

    /// Every stored row of every record, in row order: for recomputing the per-scope results
    /// from the records (`StateRecompute`), which reads the whole state once.
    /// (`keyed`: only the rows whose keys it holds, such as a kind's.)
    func allRecordRows(keyed: ([UInt8]) -> Bool = { _ in true }) throws(StateError) -> [RecordRow] {
        var rows: [RecordRow] = []
        try blocks("SELECT id, rows FROM records ORDER BY id", []) { block, stored throws(SQLiteError) in
            for (slot, row) in stored.enumerated() where keyed(row.key) {
                try append(row, at: StateRowBlock.address(block: block, slot: slot), to: &rows)
            }
        }
        return rows
    }

    /// Adds a stored row under its key's digest, which is not stored (the key gives it), unless
    /// compaction deleted it.
    private func append(_ row: StateRows.Row, at address: Int64, to rows: inout [RecordRow]) throws(SQLiteError) {
        guard !row.key.isEmpty else { return }
        rows.append(RecordRow(id: address, digest: digest.of(row.key), key: row.key, value: row.value))
    }

    /// Calls `body` with each block `sql` selects (id, rows), decoded.
    private func blocks(
        _ sql: String, _ values: [SQLiteStatement.Value], _ body: (Int64, [StateRows.Row]) throws(SQLiteError) -> Void
    ) throws(StateError) {
        try mapping { () throws(SQLiteError) in
            let select = try statement(sql).bind(values)
            defer { select.reset() }
            while try select.step() {
                guard let stored = StateRowBlock.decode(select.blob(1)) else { throw Self.damagedBlock }
                try body(select.integer(0), stored)
            }
        }
    }

    private static let damagedBlock = SQLiteError(code: SQLITE_CORRUPT, message: "a block of record rows is cut or lacks a row")

    /// Adds rows to records (a key's first row creates it) and their digests to the key index,
    /// as one run.
    func appendRecordRows(_ batches: consuming [StateRowBatch]) throws(StateError) {
        try indexRecordRows(insertRecordRows(batches))
    }

    /// Adds rows to records, in digest order, and gives their key index entries: a night inserts
    /// its rows (and lets their bytes go) before it loads the stored keys it touches, and indexes
    /// them with the rows compaction rewrites, as one run, after. The batches (each sorted here)
    /// make one run, merged by digest.
    func insertRecordRows(_ batches: consuming [StateRowBatch]) throws(StateError) -> [StateIndexEntry] {
        for index in batches.indices { batches[index].sortByDigest() }
        // Each block's id and number of rows: the rows' addresses, made once their bytes are gone
        // (a night's peak memory).
        var blocks: [(id: Int64, rows: Int)] = []
        try mapping { () throws(SQLiteError) in
            let insert = try statement("INSERT INTO records (rows) VALUES (?)")
            var builder = StateRowBlock.Builder()
            func flush() throws(SQLiteError) {
                guard builder.count > 0 else { return }
                let rows = builder.count
                try builder.flush { block throws(SQLiteError) in try insert.run(block) }
                blocks.append((connection.lastInsertRowID, rows))
            }
            try StateRowBatch.forEachInDigestOrder(batches) { (_, key, value) throws(SQLiteError) in
                if !builder.fits(keyCount: key.count, valueCount: value.count) { try flush() }
                builder.append(key: key, value: value)
            }
            try flush()
        }
        let sorted = batches.map(\.entries)
        batches = []
        var entries: [StateIndexEntry] = []
        entries.reserveCapacity(sorted.reduce(0) { $0 + $1.count })
        var block = blocks.makeIterator()
        var current = block.next()
        var slot = 0
        StateRowBatch.merged(sorted) { _, entry in
            while let filled = current, slot == filled.rows {
                current = block.next()
                slot = 0
            }
            guard let filling = current else { return }
            entries.append(StateIndexEntry(hash: entry.digest, target: StateRowBlock.address(block: filling.id, slot: slot)))
            slot += 1
        }
        return entries
    }

    /// Adds key index entries of inserted rows as one run.
    func indexRecordRows(_ entries: consuming [StateIndexEntry]) throws(StateError) {
        var entries = entries
        try mapping { () throws(SQLiteError) in try recordIndex.add(take(&entries, [])) }
    }

    // MARK: Names

    /// The number of a name the state holds.
    func nameNumber(_ text: [UInt8]) throws(StateError) -> Int64? {
        try rows("SELECT id FROM names WHERE text = ?", [.blob(text)]) { $0.integer(0) }.first
    }

    /// Numbers a new name.
    func addName(_ text: [UInt8]) throws(StateError) -> Int64 {
        try run("INSERT INTO names (text) VALUES (?)", [.blob(text)])
        return try mapping { () throws(SQLiteError) in try connection.integer("SELECT last_insert_rowid()") }
    }

    /// The text of a name by its number.
    func name(number: Int64) throws(StateError) -> [UInt8]? {
        try rows("SELECT text FROM names WHERE id = ?", [.integer(number)]) { $0.blob(0) }.first
    }

    /// Every name by its number, or nil when there are more than `limit`.
    func allNames(upTo limit: Int) throws(StateError) -> [(Int64, [UInt8])]? {
        let all = try rows("SELECT id, text FROM names LIMIT ?", [.integer(Int64(limit) + 1)]) { ($0.integer(0), $0.blob(1)) }
        return all.count > limit ? nil : all
    }

    /// The digests of the keys stored in more than one row.
    func digestsOfKeysInSeveralRows() throws(StateError) -> [Int64] {
        try allRecordRows().map(\.digest).repeated(atLeast: 2)
    }

    /// The file's size as SQLite counts it (pages × page size), without the `-wal` beside it.
    func fileBytes() throws(StateError) -> Int64 {
        try mapping { () throws(SQLiteError) in
            try connection.integer("PRAGMA page_count") * connection.integer("PRAGMA page_size")
        }
    }

    /// Rebuilds the file without its free pages (after `commit()`, outside any transaction).
    func vacuum() throws(StateError) {
        statements = [:]
        // A state made before schema 6 gets incremental vacuum as it is rewritten.
        try mapping { () throws(SQLiteError) in try connection.execute("PRAGMA auto_vacuum = INCREMENTAL; VACUUM") }
    }

    /// Deletes the rows at these addresses: their slots are emptied, so the other rows of their
    /// blocks keep their addresses. Block by block in order, each read and written once.
    func deleteRecordRows(_ ids: consuming [Int64]) throws(StateError) {
        var ids = ids
        ids.radixSort()
        ids.removeDuplicates()
        var next = 0
        while next < ids.count {
            let block = StateRowBlock.block(of: ids[next])
            var slots: [Int] = []
            while next < ids.count, StateRowBlock.block(of: ids[next]) == block {
                slots.append(StateRowBlock.slot(of: ids[next]))
                next += 1
            }
            let stored = try rows("SELECT rows FROM records WHERE id = ?", [.integer(block)]) { $0.blob(0) }
            guard let bytes = stored.first, let kept = StateRowBlock.deleting(slots: slots, from: bytes) else {
                throw StateError.damaged(path: path, reason: Self.damagedBlock.message)
            }
            try run("UPDATE records SET rows = ? WHERE id = ?", [.blob(kept), .integer(block)])
        }
    }

    /// Records that records belong to what links name (a click, a unit): entries of the link's
    /// digest and the record's key digest. Links only grow: a stale one makes a night read one
    /// more unchanged record.
    func addLinks(_ links: consuming [StateIndexEntry]) throws(StateError) {
        var links = links
        try mapping { () throws(SQLiteError) in try linkIndex.add(take(&links, [])) }
    }

    /// The key hashes of the stored records linked to any of `links`: those of this run's own
    /// links (`addLinks`) may be left out, while they stand in a run of their own.
    func storedLinkedRecords(_ links: consuming [Int64]) throws(StateError) -> [Int64] {
        try storedLinks(of: links).map(\.target)
    }

    /// The links of these digests, each with the digest of the record it names; this run's own
    /// (`addLinks`, which name this run's records) may be left out, while they stand in a run of
    /// their own: a night's loads want the stored records, and found its own as many again.
    func storedLinks(of digests: consuming [Int64]) throws(StateError) -> [StateIndexEntry] {
        var digests = digests
        return try mapping { () throws(SQLiteError) in try linkIndex.entries(of: take(&digests, []), exceptLatestAdded: true) }
    }

    /// Each index rewritten as one run: the key index from the records as they are now (without
    /// the rows compaction deleted, each under its key's digest), the links merged
    /// (`state --compact`).
    func rebuildIndexes() throws(StateError) {
        let entries = try allRecordRows().map { StateIndexEntry(hash: $0.digest, target: $0.id) }
        try mapping { () throws(SQLiteError) in
            try recordIndex.replaceAll(with: entries)
            try linkIndex.mergeAll()
        }
    }

    /// Distinct integers in ascending order as one JSON array, which `json_each` walks: the table
    /// is then read in order, page by page, and no table of them is written.
    private static func jsonArray(_ sortedDistinct: [Int64]) -> String {
        "[" + sortedDistinct.map(String.init).joined(separator: ",") + "]"
    }

    // MARK: The indexes

    /// Record key digests to their rows' ids.
    private lazy var recordIndex = StateIndex(kind: .recordKeys, connection: connection)
    /// Link digests to the digests of the records they name.
    private lazy var linkIndex = StateIndex(kind: .links, connection: connection)

    /// The merged records of the totals kinds (`StateSchema.totalKinds`), as (KEY, VALUE) texts.
    func totals() throws(StateError) -> [([UInt8], [UInt8])] {
        try rows("SELECT key, value FROM totals", []) { ($0.bytes(0), $0.bytes(1)) }
    }

    func replaceTotals(with records: [([UInt8], [UInt8])]) throws(StateError) {
        try run("DELETE FROM totals", [])
        for (key, value) in records {
            try run("INSERT INTO totals (kind, key, value) VALUES (?, ?, ?)",
                    [.text(StateRecordText.kind(of: key)), .bytes(key), .bytes(value)])
        }
    }

    /// The join stages' per-campaign results under one preview scope, as (KEY, VALUE) texts.
    func aggregates(scope: PreviewScope) throws(StateError) -> [([UInt8], [UInt8])] {
        try rows("SELECT key, value FROM aggregates WHERE scope = ?", [.text(scope.rawValue)]) { ($0.bytes(0), $0.bytes(1)) }
    }

    /// Replaces the stored results with those of `scope`: the state keeps the results of the
    /// scope its last run reported, and a run under another recomputes them (`StateRecompute`).
    func replaceAggregates(scope: PreviewScope, with records: [([UInt8], [UInt8])]) throws(StateError) {
        try run("DELETE FROM aggregates", [])
        for (key, value) in records {
            try run("INSERT INTO aggregates (scope, kind, key, value) VALUES (?, ?, ?, ?)",
                    [.text(scope.rawValue), .text(StateRecordText.kind(of: key)), .bytes(key), .bytes(value)])
        }
    }

    /// Whether every stored per-scope result is of the current stage format: a state written
    /// before format 5 lacks Σr² in `variant_counts` and must be recomputed (`StateRecompute`).
    func aggregatesAreCurrent() throws(StateError) -> Bool {
        let prefix = "{\"v\":\(RecordEncoder.formatVersion),%"
        return try rows("SELECT count(*) FROM aggregates WHERE CAST(value AS TEXT) NOT LIKE ?", [.text(prefix)]) {
            $0.integer(0)
        }.first == 0
    }

    /// The options (JSON text) recorded with the last run, nil before the first.
    func lastRunOptions() throws(StateError) -> String? {
        try rows("SELECT options FROM runs ORDER BY id DESC LIMIT 1", []) { $0.text(0) }.first
    }

    /// Adds the columns a report history table gained since the state was made (section 10's
    /// exposure columns): its rows of earlier runs hold NULL there, as an empty cell.
    func addMissingHistoryColumns() throws(StateError) {
        for table in [HistoryTable.attribution, .exposure] {
            let present = Set(try rows("SELECT name FROM pragma_table_info('\(table.rawValue)')", []) { $0.text(0) })
            for column in table.columns where !present.contains(column.name) {
                try run("ALTER TABLE \(table.rawValue) ADD COLUMN \"\(column.name)\" \(column.sqlType)", [])
            }
        }
    }

    /// What the reports are built from: the accounting, the per-campaign Grona counters and
    /// totals, and the join stages' results under `scope`.
    func reportState(scope: PreviewScope) throws(StateError) -> JoinedState {
        var decoder = RecordDecoder()
        let stored = try totals() + aggregates(scope: scope)
        for (key, value) in stored {
            try StateRecordText.read(key, value, into: &decoder, path: path)
        }
        return JoinedState(afterJoins: decoder.state)
    }

    private func run(_ sql: String, _ values: [SQLiteStatement.Value]) throws(StateError) {
        try mapping { () throws(SQLiteError) in try statement(sql).run(values) }
    }

    private func rows<Row>(
        _ sql: String, _ values: [SQLiteStatement.Value], _ read: (SQLiteStatement) -> Row
    ) throws(StateError) -> [Row] {
        try mapping { () throws(SQLiteError) -> [Row] in
            let select = try statement(sql).bind(values)
            var rows: [Row] = []
            while try select.step() { rows.append(read(select)) }
            return rows
        }
    }

    // MARK: Report history

    /// Stores a run's rows of `attribution.csv` or `exposure.csv` (cells in header order).
    func recordHistory(_ table: HistoryTable, run: Int, rows: [[JSONOutput]]) throws(StateError) {
        let columns = table.columns
        let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
        try mapping { () throws(SQLiteError) in
            let insert = try connection.prepare("INSERT INTO \(table.rawValue) (run_id, \(names)) VALUES (\(marks))")
            for row in rows {
                try insert.run([.integer(Int64(run))] + row.map(Self.storedValue))
            }
        }
    }

    /// A run's rows, as report cells in header order.
    func history(_ table: HistoryTable, run: Int) throws(StateError) -> [[JSONOutput]] {
        let columns = table.columns
        let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        return try mapping { () throws(SQLiteError) -> [[JSONOutput]] in
            let select = try connection.prepare("SELECT \(names) FROM \(table.rawValue) WHERE run_id = ?").bind([.integer(Int64(run))])
            var rows: [[JSONOutput]] = []
            while try select.step() {
                rows.append(columns.indices.map { Self.cell(select.value(Int32($0)), columns[$0].kind) })
            }
            return rows
        }
    }

    private static func storedValue(_ cell: JSONOutput) -> SQLiteStatement.Value {
        switch cell {
        case .string(let text): .bytes(text.bytes)
        case .integer(let number): .integer(Int64(number))
        case .bigInteger(let number): Int64(exactly: number).map { .integer($0) } ?? .text(String(number))
        case .decimal(let number?): .real(number)
        case .bool(let flag): .integer(flag ? 1 : 0)
        default: .null
        }
    }

    private static func cell(_ value: SQLiteStatement.Value, _ kind: StateSchema.HistoryColumn.Kind) -> JSONOutput {
        switch (value, kind) {
        case (.null, _): .null
        case (.integer(let number), .boolean): .bool(number != 0)
        case (.integer(let number), .decimal): .decimal(Double(number))
        case (.integer(let number), _): .bigInteger(Int128(number))
        case (.real(let number), _): .decimal(number)
        case (.text(let text), .integer): Int128(text).map(JSONOutput.bigInteger) ?? .text(text)
        case (.text(let text), _): .text(text)
        case (.bytes(let bytes), _), (.blob(let bytes), _): .string(ByteString(bytes))
        }
    }
}

/// The two report history tables and their columns.
enum HistoryTable: String {
    case attribution = "attribution_history"
    case exposure = "exposure_history"

    var columns: [StateSchema.HistoryColumn] {
        switch self {
        case .attribution: StateSchema.attributionColumns
        case .exposure: StateSchema.exposureColumns
        }
    }

    /// The report name `changes.csv` gives it.
    var report: String {
        switch self {
        case .attribution: "attribution"
        case .exposure: "exposure"
        }
    }

    /// Columns that identify a row rather than measure it.
    var keyColumns: Int { self == .attribution ? 1 : 2 }
}
