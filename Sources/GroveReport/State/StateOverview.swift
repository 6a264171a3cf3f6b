import CSQLite

/// What `grove-report state FILE` prints: the schema version and every run with its inputs,
/// read without taking the writer's lock (WAL lets it read while a night is being ingested).
/// Like a writer, it waits up to `--lock-wait` when a writer holds the whole file (as it does
/// for a moment when it closes).
public struct StateOverview {
    struct Run {
        var id: Int
        var started: String
        var status: String
        var options: String
        var lines: Int
        var rejected: Int
        /// Stored record rows the run read (schema 3 on).
        var recordsRead: Int?
        var inputs: [StateStore.LedgerEntry]
    }

    /// The per-key records of one kind: distinct keys and the rows that hold them.
    struct Kind {
        var name: String
        var keys: Int
        var rows: Int
    }

    var schemaVersion: Int
    var runs: [Run]
    /// What the state holds (schema 3 on; an older state shows it after its next run migrates it).
    var kinds: [Kind] = []
    /// Bytes of the file by table and index (SQLite's `dbstat`), largest first.
    var tableBytes: [(name: String, bytes: Int)] = []

    public init(path: String, lockWaitSeconds: Double = 0) throws(StateError) {
        schemaVersion = try Self.version(of: path, lockWaitSeconds: lockWaitSeconds)
        do throws(SQLiteError) {
            let connection = try Self.reader(path, lockWaitSeconds: lockWaitSeconds)
            // One snapshot for both tables, even while a writer commits.
            try connection.execute("BEGIN")
            var inputs: [Int: [StateStore.LedgerEntry]] = [:]
            let inputRows = try connection.prepare("SELECT run_id, name, sha256, lines FROM inputs ORDER BY rowid")
            while try inputRows.step() {
                let run = Int(inputRows.integer(0))
                inputs[run, default: []].append(StateStore.LedgerEntry(
                    run: run, name: inputRows.isNull(1) ? nil : inputRows.text(1), sha256: inputRows.text(2),
                    lines: Int(inputRows.integer(3))))
            }
            let current = schemaVersion == StateSchema.version
            let runRows = try connection.prepare(
                "SELECT id, started, status, options, lines, rejected, \(current ? "records_read" : "NULL") FROM runs ORDER BY id")
            runs = []
            while try runRows.step() {
                let id = Int(runRows.integer(0))
                runs.append(Run(
                    id: id, started: runRows.text(1), status: runRows.text(2), options: runRows.text(3),
                    lines: Int(runRows.integer(4)), rejected: Int(runRows.integer(5)),
                    recordsRead: runRows.isNull(6) ? nil : Int(runRows.integer(6)), inputs: inputs[id] ?? []))
            }
            if current { try readContents(connection) }
        } catch {
            throw StateFile.mapped(error, path: path)
        }
    }

    /// Keys and rows by kind, and bytes by table.
    private mutating func readContents(_ connection: SQLiteConnection) throws(SQLiteError) {
        // Rows are stored in blocks (`StateRowBlock`), read here one by one. Keys are counted as
        // distinct 64-bit SipHashes of their bytes under a key of this process: eight bytes a key
        // (a set of the keys themselves took hundreds of MB on a large state), and no sender can
        // aim ids at a key it does not know.
        let hashing = StateKeyDigest(key: SHA256Digest.randomBytes(16))
        var byKind: [UInt8: (hashes: [UInt64], rows: Int)] = [:]
        let blocks = try connection.prepare("SELECT rows FROM records")
        while try blocks.step() {
            guard let rows = StateRowBlock.decode(blocks.blob(0)) else {
                throw SQLiteError(code: SQLITE_CORRUPT, message: "a block of record rows is cut")
            }
            for row in rows {
                guard let kind = row.key.first else { continue }
                byKind[kind, default: ([], 0)].hashes.append(row.key.withUnsafeBufferPointer(hashing.sipHash))
                byKind[kind, default: ([], 0)].rows += 1
            }
        }
        for (kind, counts) in byKind.sorted(by: { $0.key < $1.key }) {
            var hashes = counts.hashes.sorted()
            hashes.removeDuplicates()
            kinds.append(Kind(name: StateRows.kindName(of: [kind]), keys: hashes.count, rows: counts.rows))
        }
        let bySize = try connection.prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC, 1")
        while try bySize.step() { tableBytes.append((bySize.text(0), Int(bySize.integer(1)))) }
    }

    /// Runs SQLite's integrity check (`PRAGMA integrity_check`) on the state at `path`: the line
    /// to print when it passes; `damaged` with SQLite's first finding when it does not.
    public static func check(path: String, lockWaitSeconds: Double = 0) throws(StateError) -> String {
        _ = try version(of: path, lockWaitSeconds: lockWaitSeconds)
        var findings: [String] = []
        do throws(SQLiteError) {
            let connection = try reader(path, lockWaitSeconds: lockWaitSeconds)
            let check = try connection.prepare("PRAGMA integrity_check")
            while try check.step() { findings.append(check.text(0)) }
        } catch {
            throw StateFile.mapped(error, path: path)
        }
        guard findings != ["ok"] else { return "state '\(path)' passed SQLite's integrity check" }
        let more = findings.count > 1 ? " and \(findings.count - 1) more finding\(findings.count == 2 ? "" : "s")" : ""
        throw .damaged(path: path, reason: "integrity check: \(findings.first ?? "no result")\(more)")
    }

    /// The schema version of the state at `path`; a usage error when it is none (or newer).
    private static func version(of path: String, lockWaitSeconds: Double) throws(StateError) -> Int {
        switch try StateFile.inspect(path, lockWaitSeconds: lockWaitSeconds) {
        case .missing: throw .notAState(path: path, reason: "no such file")
        case .state(let version): return version
        }
    }

    /// A read-only connection that waits up to `lockWaitSeconds` for a writer holding the file.
    private static func reader(_ path: String, lockWaitSeconds: Double) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        connection.setBusyTimeout(seconds: lockWaitSeconds)
        return connection
    }

    /// A table for people.
    public var text: String {
        var lines = ["state schema version \(schemaVersion), \(runs.count) run\(runs.count == 1 ? "" : "s")"]
        for run in runs {
            lines.append("run \(run.id)  \(run.started)  \(run.status)  \(run.lines) lines, \(run.rejected) rejected, \(run.inputs.count) input\(run.inputs.count == 1 ? "" : "s")\(run.recordsRead.map { ", \($0) stored rows read" } ?? "")  \(run.options)")
            for input in run.inputs {
                lines.append("    \(input.name ?? "-")  \(input.lines) lines  sha256 \(input.sha256)")
            }
        }
        for kind in kinds { lines.append("records \(kind.name): \(kind.keys) keys in \(kind.rows) rows") }
        for table in tableBytes { lines.append("bytes \(table.name): \(table.bytes)") }
        return lines.joined(separator: "\n") + "\n"
    }

    public var json: [UInt8] {
        JSONOutput.object([
            JSONOutput.Member("schema_version", .integer(schemaVersion)),
            JSONOutput.Member("runs", .array(runs.map { run in
                .object([
                    JSONOutput.Member("id", .integer(run.id)),
                    JSONOutput.Member("started", .text(run.started)),
                    JSONOutput.Member("status", .text(run.status)),
                    JSONOutput.Member("options", .text(run.options)),
                    JSONOutput.Member("lines", .integer(run.lines)),
                    JSONOutput.Member("rejected", .integer(run.rejected)),
                    JSONOutput.Member("records_read", run.recordsRead.map(JSONOutput.integer) ?? .null),
                    JSONOutput.Member("inputs", .array(run.inputs.map { input in
                        .object([
                            JSONOutput.Member("file", input.name.map(JSONOutput.text) ?? .text("-")),
                            JSONOutput.Member("sha256", .text(input.sha256)),
                            JSONOutput.Member("lines", .integer(input.lines)),
                        ])
                    })),
                ])
            })),
            JSONOutput.Member("records", .object(kinds.map { kind in
                JSONOutput.Member(kind.name, .object([
                    JSONOutput.Member("keys", .integer(kind.keys)), JSONOutput.Member("rows", .integer(kind.rows)),
                ]))
            })),
            JSONOutput.Member("bytes", .object(tableBytes.map { JSONOutput.Member($0.name, .integer($0.bytes)) })),
        ]).rendered()
    }
}
