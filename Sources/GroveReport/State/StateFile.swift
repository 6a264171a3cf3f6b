#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// The `--state` file before anything writes to it: what it is, found by reading alone, and a
/// new state made whole under a temporary name before it takes its own (docs/STATE.md, The
/// contract).
///
/// A run opens the file for writing only once it is known to be a grove-report state, so a file
/// that is empty, not SQLite, an SQLite database of another program or a damaged state is
/// refused with not a byte of it changed: no journal mode switched, no pragma written, no side
/// file made.
enum StateFile {
    /// What `inspect` found at a path.
    enum Found: Equatable {
        /// Nothing: a run creates a new state there.
        case missing
        /// A grove-report state of this schema `version` or an older one.
        case state(version: Int)
    }

    /// Says what the file at `path` is, reading it without changing it: its header first, then
    /// its schema through SQLite opened read-only (and, when no `-wal` or `-journal` lies beside
    /// it, `immutable`, so that not even a side file is made). Waits up to `lockWaitSeconds` for
    /// a writer that holds the file (`busy` after that).
    static func inspect(_ path: String, lockWaitSeconds: Double) throws(StateError) -> Found {
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw .cannotRead(path: path, reason: errnoDescription()) }
            return .missing
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAState(path: path, reason: "it is not a regular file") }
        guard status.st_size > 0 else { throw .notAState(path: path, reason: "it is empty") }
        try checkHeader(path, size: Int(status.st_size))
        let immutable = !hasSideFiles(path)
        do {
            return try readSchema(path, immutable: immutable, lockWaitSeconds: lockWaitSeconds)
        } catch {
            // A writer may have started meanwhile and be folding its log into the file: read
            // again the way SQLite shares a file before calling it damaged.
            guard case .damaged = error, immutable, hasSideFiles(path) else { throw error }
            return try readSchema(path, immutable: false, lockWaitSeconds: lockWaitSeconds)
        }
    }

    /// Whether SQLite's `-wal` or `-journal` file lies beside `path`: then the file alone is not
    /// the whole database.
    static func hasSideFiles(_ path: String) -> Bool {
        access(path + "-wal", F_OK) == 0 || access(path + "-journal", F_OK) == 0
    }

    /// The first 16 bytes of every SQLite 3 database file.
    static let magic = Array("SQLite format 3\0".utf8)

    /// Checks SQLite's 100-byte file header (https://www.sqlite.org/fileformat.html, 1.3) and,
    /// when no side file holds part of the database, that the file is as long as the header says.
    private static func checkHeader(_ path: String, size: Int) throws(StateError) {
        let header = try readHead(path, count: 100)
        guard header.starts(with: magic) else {
            throw .notAState(path: path, reason: "it is not an SQLite database")
        }
        guard header.count == 100 else { throw .damaged(path: path, reason: "truncated to \(size) bytes") }
        let storedPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = storedPageSize == 1 ? 65_536 : storedPageSize
        let sound = (512...65_536).contains(pageSize) && pageSize & (pageSize - 1) == 0
            && (1...2).contains(header[18]) && (1...2).contains(header[19])
            && header[21] == 64 && header[22] == 32 && header[23] == 32
        guard sound else { throw .damaged(path: path, reason: "its SQLite header is damaged") }
        // The page count at offset 28 is valid when the change counter (24) equals the
        // version-valid-for number (92); after a clean close the file holds exactly that many pages.
        let pageCount = bigEndian(header[28..<32])
        guard !hasSideFiles(path), pageCount > 0, header[24..<28] == header[92..<96] else { return }
        let expected = pageCount * pageSize
        guard size >= expected else {
            throw .damaged(path: path, reason: "truncated: \(size) of its \(expected) bytes")
        }
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    private static func readHead(_ path: String, count: Int) throws(StateError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: errnoDescription()) }
        defer { Glibc.close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .cannotRead(path: path, reason: errnoDescription()) }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }

    // MARK: The schema

    /// The tables every version of the schema has; `meta` holds the salt.
    static let coreTables: Set<String> = ["meta", "runs", "inputs"]

    /// The tables of version 1 (the first release), which its migration reads.
    static let version1Tables: Set<String> = coreTables.union([
        "records", "open_clicks", "unit_installs", "unit_orders", "aggregates", "attribution_history", "exposure_history",
    ])

    /// The tables of version 2 (stage record text found by CRC-32), which its migration reads.
    static let version2Tables: Set<String> = coreTables.union([
        "records", "links", "totals", "aggregates", "attribution_history", "exposure_history",
    ])

    /// The tables of versions 3 and 4 (binary rows under a B-tree index of digests, links in a
    /// B-tree, one Bloom filter of both), which their migrations read.
    static let version4Tables: Set<String> = version2Tables.union(["names", "key_filter", "key_filter_blocks"])

    /// The tables of the current version: those `StateSchema.creation` makes.
    static let currentTables: Set<String> = {
        guard let memory = try? SQLiteConnection(path: ":memory:"), (try? memory.execute(StateSchema.creation)) != nil,
              let names = try? tableNames(memory)
        else { return coreTables }
        return names
    }()

    /// The tables a state of `version` must have.
    static func tables(ofVersion version: Int) -> Set<String> {
        switch version {
        // Versions 5 and 6 have the tables of version 7: version 5's records keep their digests
        // and its index chunks fixed-width entries; version 6 lacks only links (of orders).
        case StateSchema.version, 6, 5: currentTables
        // Version 3 has the tables of version 4; only its rows keep ids whole.
        case 3, 4: version4Tables
        case 1: version1Tables
        case 2: version2Tables
        default: coreTables
        }
    }

    private static func tableNames(_ connection: SQLiteConnection) throws(SQLiteError) -> Set<String> {
        let select = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names: Set<String> = []
        while try select.step() { names.insert(select.text(0)) }
        return names
    }

    /// Reads the schema version and the tables, and tells a state from any other database.
    private static func readSchema(_ path: String, immutable: Bool, lockWaitSeconds: Double) throws(StateError) -> Found {
        enum Verdict {
            case state(Int)
            case newer(Int)
            case other(String)
        }
        let verdict: Verdict
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path, mode: immutable ? .immutable : .readOnly)
            connection.setBusyTimeout(seconds: lockWaitSeconds)
            let version = Int(try connection.integer("PRAGMA user_version"))
            let tables = try tableNames(connection)
            if version <= 0 {
                verdict = .other(tables.isEmpty ? "an empty SQLite database" : "an SQLite database without grove-report's schema")
            } else if version > StateSchema.version {
                verdict = .newer(version)
            } else if !tables.isSuperset(of: Self.tables(ofVersion: version)) {
                verdict = .other("an SQLite database without grove-report's schema")
            } else if try connection.integer("SELECT count(*) FROM meta WHERE name = 'email_salt'") != 1 {
                verdict = .other("no email salt")
            } else {
                verdict = .state(version)
            }
        } catch {
            throw mapped(error, path: path)
        }
        switch verdict {
        case .state(let version): return .state(version: version)
        case .newer(let version): throw .newerSchema(path: path, version: version)
        case .other(let reason): throw .notAState(path: path, reason: reason)
        }
    }

    /// SQLite's error on a file only read: busy, damage, a schema that is not the state's
    /// (`SQLITE_ERROR`: no such table or column), or a file that cannot be read.
    static func mapped(_ error: SQLiteError, path: String) -> StateError {
        if error.isBusy { return .busy(path: path) }
        if error.isDamage { return .damaged(path: path, reason: error.message) }
        if error.code & 0xFF == SQLITE_ERROR { return .notAState(path: path, reason: "an SQLite database without grove-report's schema") }
        return .cannotRead(path: path, reason: error.message)
    }

    // MARK: A new state

    /// Makes a new state at `path` with `build`, which fills the file it is given: built whole
    /// under a temporary name beside `path`, then linked to `path` only if nothing has taken the
    /// name meanwhile. A run killed while creating leaves no state at all, never a half-made or
    /// empty one (at most the temporary `.NAME.PID.new`).
    static func create(_ path: String, build: (String) throws(StateError) -> Void) throws(StateError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]).isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(directory)/.\(name).\(getpid()).new"
        let pieces = [temporary] + ["-journal", "-wal", "-shm"].map { temporary + $0 }
        for piece in pieces { TemporaryFiles.register(piece) }
        defer { for piece in pieces { TemporaryFiles.remove(piece) } }
        for piece in pieces { unlink(piece) }
        try build(temporary)
        if link(temporary, path) != 0 {
            // Another run made the state meanwhile: use theirs.
            if errno == EEXIST { return }
            // A file system without hard links: rename, which would replace a file made meanwhile.
            guard access(path, F_OK) != 0, rename(temporary, path) == 0 else {
                throw .cannotWrite(path: path, reason: errnoDescription())
            }
        }
        // The new name is durable before the first night is written under it.
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            Glibc.close(descriptor)
        }
    }
}
