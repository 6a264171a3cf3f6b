import CSQLite

/// Why SQLite refused: its result code and message, and what grove-report was doing.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    /// Another connection holds the write lock (after the busy timeout).
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    /// SQLite found the file damaged: malformed (`SQLITE_CORRUPT`) or not a database
    /// (`SQLITE_NOTADB`), or a constraint failed (`SQLITE_CONSTRAINT`): the state's statements
    /// never insert a name, an input or a key twice, so a violation means a damaged index no
    /// longer finds what its table holds (a flipped byte in a page SQLite trusts).
    var isDamage: Bool {
        [SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_CONSTRAINT].contains(code & 0xFF)
    }

    var description: String { message }
}

/// One connection to a SQLite database file, used from one thread. Statements are prepared once
/// and reused with new bindings; errors carry SQLite's code and message.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var closed = false

    /// How a connection may use its file.
    enum Mode {
        /// Read and write; the file is created when missing.
        case create
        /// Read and write an existing file.
        case readWrite
        /// Only read (SQLite may still make the `-wal`/`-shm` side files of a WAL database).
        case readOnly
        /// Only read a file nothing else writes: no lock, no side file, no change of any kind
        /// (SQLite's `immutable` URI parameter). Only for a file with no `-wal` or `-journal`.
        case immutable
    }

    /// Opens the database at `path`: for writing (created when missing) or only for reading.
    convenience init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        try self.init(path: path, mode: readOnly ? .readOnly : .create)
    }

    init(path: String, mode: Mode) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags: Int32
        var name = path
        switch mode {
        case .create: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .immutable:
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + "?mode=ro&immutable=1"
        }
        let status = sqlite3_open_v2(name, &opened, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(opened)
            throw SQLiteError(code: status, message: message)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { if !closed { sqlite3_close_v2(handle) } }

    /// `path` as the path of a `file:` URI: every byte but unreserved ones and `/` percent-encoded.
    static func uriPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return encoded
    }

    /// Copies what the write-ahead log holds back into the database file without waiting for
    /// anyone (`SQLITE_CHECKPOINT_PASSIVE`). Nil when that went as far as the other
    /// connections let it (all of it when none reads an older snapshot) or another connection
    /// holds the file (it will fold the log itself); SQLite's error otherwise (a full disk).
    /// A database not in WAL mode has nothing to fold.
    func checkpoint() -> SQLiteError? {
        var logFrames: Int32 = 0
        var folded: Int32 = 0
        let status = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &folded)
        switch status & 0xFF {
        case SQLITE_OK, SQLITE_BUSY, SQLITE_LOCKED: return nil
        default: return error(status)
        }
    }

    /// Closes the connection (statements still alive keep it open until they go). Closing the
    /// last connection of a WAL database folds the log back and removes the side files, when it can.
    func close() {
        guard !closed else { return }
        closed = true
        sqlite3_close_v2(handle)
    }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(seconds: Double) {
        sqlite3_busy_timeout(handle, Int32(min(seconds * 1000, Double(Int32.max))))
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(statement, connection: self)
    }

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(0) : 0
    }

    /// The rowid of the last row inserted on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind by position (from 1), step, read columns (from 0), reset.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    /// A value to bind: what the state stores.
    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case bytes([UInt8])
        /// Bytes that are no text (the binary rows of the state).
        case blob([UInt8])
        case null
    }

    /// Resets the statement and binds `values` to its parameters in order.
    @discardableResult
    func bind(_ values: [Value]) throws(SQLiteError) -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let position = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, position, number)
            case .real(let number): status = sqlite3_bind_double(statement, position, number)
            case .text(let text): status = sqlite3_bind_text(statement, position, text, -1, grove_sqlite_transient())
            case .bytes(let bytes):
                // A zero-length text is bound from a valid pointer, so it reads back as '' and not NULL.
                status = (bytes.isEmpty ? [0] : bytes).withUnsafeBytes {
                    sqlite3_bind_text(statement, position, $0.baseAddress!.assumingMemoryBound(to: CChar.self),
                                      Int32(bytes.count), grove_sqlite_transient())
                }
            case .blob(let bytes):
                // A zero-length blob is bound from a valid pointer, so it reads back as x'' and not NULL.
                status = (bytes.isEmpty ? [0] : bytes).withUnsafeBytes {
                    sqlite3_bind_blob(statement, position, $0.baseAddress, Int32(bytes.count), grove_sqlite_transient())
                }
            case .null: status = sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw connection.error(status) }
        }
        return self
    }

    /// Runs a statement of one blob parameter that returns no rows. The blob is not copied:
    /// SQLite reads it in place before this returns, and forgets it then.
    func run(_ blob: [UInt8]) throws(SQLiteError) {
        sqlite3_reset(statement)
        defer { sqlite3_clear_bindings(statement) }
        let status = blob.withUnsafeBytes { bytes -> Int32 in
            let bound = bindStatic(1, bytes)
            guard bound == SQLITE_OK else { return bound }
            var stepped = sqlite3_step(statement)
            while stepped == SQLITE_ROW { stepped = sqlite3_step(statement) }
            return stepped == SQLITE_DONE ? SQLITE_OK : stepped
        }
        guard status == SQLITE_OK else { throw connection.error(status) }
    }

    /// Binds bytes SQLite must not keep past the statement's step (`SQLITE_STATIC`); an empty
    /// blob is x'', not NULL.
    private func bindStatic(_ position: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, position, 0) }
        return sqlite3_bind_blob(statement, position, base, Int32(bytes.count), nil)
    }

    /// Ends the statement's current use, releasing what it reads.
    func reset() {
        sqlite3_reset(statement)
    }

    /// Advances to the next row: true while there is one.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw connection.error(status)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    /// The column's bytes as text (empty for NULL).
    func bytes(_ column: Int32) -> [UInt8] {
        guard let text = sqlite3_column_text(statement, column) else { return [] }
        return Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))))
    }

    /// The column's bytes as a blob (empty for NULL).
    func blob(_ column: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, column))))
    }

    /// The column's bytes as a blob, in place: valid until the statement steps or resets.
    func blobInPlace(_ column: Int32) -> UnsafeRawBufferPointer {
        guard let blob = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, column)))
    }

    func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }

    /// The column as stored: integer, real, text or NULL.
    func value(_ column: Int32) -> Value {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(integer(column))
        case SQLITE_FLOAT: .real(real(column))
        case SQLITE_NULL: .null
        default: .text(text(column))
        }
    }
}
