import CSQLite

/// Brings a state written by an older schema to the current one, inside the run's transaction
/// (a run that fails afterwards leaves the file as it was, old schema included).
enum StateMigration {
    /// Version 1 kept each record in one row under its KEY, the totals among them, and three
    /// key-to-key indexes (opens by click, install records and orders by unit); its records
    /// were stage records of format 2 (`RecordFormat2`).
    static func fromVersion1(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("ALTER TABLE records RENAME TO records_v1")
        try connection.execute(StateSchema.recordTables)
        let record = try connection.prepare("INSERT INTO records (hash, kind, key, value) VALUES (?, ?, ?, ?)")
        let total = try connection.prepare("INSERT INTO totals (kind, key, value) VALUES (?, ?, ?)")
        let rows = try connection.prepare("SELECT key, value FROM records_v1 ORDER BY key")
        while try rows.step() {
            guard let (kind, key, value) = RecordFormat2.upgrade(key: rows.bytes(0), value: rows.bytes(1)) else {
                throw SQLiteError(code: SQLITE_NOTADB, message: "a stored record of version 1 is not of stage format 2")
            }
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
                let member = RecordFormat2.upgrade(key: entries.bytes(1))?.key ?? entries.bytes(1)
                try link.run([.integer(linkHash(ByteString(entries.bytes(0)))), .integer(StateKeyHash.of(member))])
            }
        }
        try upgradeAggregates(connection)
        try connection.execute("""
            DROP TABLE records_v1; DROP TABLE open_clicks; DROP TABLE unit_installs; DROP TABLE unit_orders;
            PRAGMA user_version = 2;
            """)
    }

    /// Rewrites the per-scope results in stage format 3.
    private static func upgradeAggregates(_ connection: SQLiteConnection) throws(SQLiteError) {
        let select = try connection.prepare("SELECT scope, key, value FROM aggregates")
        var rows: [(scope: String, key: [UInt8], value: [UInt8])] = []
        while try select.step() { rows.append((select.text(0), select.bytes(1), select.bytes(2))) }
        let update = try connection.prepare("UPDATE aggregates SET kind = ?, key = ?, value = ? WHERE scope = ? AND key = ?")
        for row in rows {
            guard let upgraded = RecordFormat2.upgrade(key: row.key, value: row.value) else { continue }
            try update.run([.text(upgraded.kind), .bytes(upgraded.key), .bytes(upgraded.value), .text(row.scope), .bytes(row.key)])
        }
    }
}
