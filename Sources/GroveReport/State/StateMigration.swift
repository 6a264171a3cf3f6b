/// Brings a state written by an older schema to the current one, inside the run's transaction
/// (a run that fails afterwards leaves the file as it was, old schema included).
enum StateMigration {
    /// Version 1 kept each record in one row under its KEY, the totals among them, and three
    /// key-to-key indexes (opens by click, install records and orders by unit).
    static func fromVersion1(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("ALTER TABLE records RENAME TO records_v1")
        try connection.execute(StateSchema.recordTables)
        let record = try connection.prepare("INSERT INTO records (hash, kind, key, value) VALUES (?, ?, ?, ?)")
        let total = try connection.prepare("INSERT INTO totals (kind, key, value) VALUES (?, ?, ?)")
        let rows = try connection.prepare("SELECT kind, key, value FROM records_v1 ORDER BY key")
        while try rows.step() {
            let (kind, key, value) = (rows.text(0), rows.bytes(1), rows.bytes(2))
            if StateSchema.totalKinds.contains(kind) {
                try total.run([.text(kind), .bytes(key), .bytes(value)])
            } else {
                try record.run([.integer(StateKeyHash.of(key)), .text(kind), .bytes(key), .bytes(value)])
            }
        }
        let link = try connection.prepare("INSERT OR IGNORE INTO links (hash, record_hash) VALUES (?, ?)")
        let indexes: [(String, (ByteString) -> Int64)] = [
            ("SELECT click_id, open_key FROM open_clicks", StateKeyHash.click),
            ("SELECT unit, install_key FROM unit_installs", StateKeyHash.unit),
            ("SELECT unit, order_key FROM unit_orders", StateKeyHash.unit),
        ]
        for (query, linkHash) in indexes {
            let entries = try connection.prepare(query)
            while try entries.step() {
                try link.run([.integer(linkHash(ByteString(entries.bytes(0)))), .integer(StateKeyHash.of(entries.bytes(1)))])
            }
        }
        try connection.execute("""
            DROP TABLE records_v1; DROP TABLE open_clicks; DROP TABLE unit_installs; DROP TABLE unit_orders;
            PRAGMA user_version = 2;
            """)
    }
}
