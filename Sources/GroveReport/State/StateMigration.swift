import CSQLite

/// Brings a state written by an older schema to the current one (version 3), inside the run's
/// transaction (a run that fails afterwards leaves the file as it was, old schema included).
enum StateMigration {
    /// Version 1 kept each record in one row under its KEY, the totals among them, and three
    /// key-to-key indexes (opens by click, install records and orders by unit); its records
    /// were stage records of format 2 (`RecordFormat2`).
    static func fromVersion1(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("ALTER TABLE records RENAME TO records_v1")
        try connection.execute(StateSchema.version2RecordTables)
        let record = try connection.prepare("INSERT INTO records (hash, kind, key, value) VALUES (0, ?, ?, ?)")
        let total = try connection.prepare("INSERT INTO totals (kind, key, value) VALUES (?, ?, ?)")
        let rows = try connection.prepare("SELECT key, value FROM records_v1 ORDER BY key")
        while try rows.step() {
            guard let (kind, key, value) = RecordFormat2.upgrade(key: rows.bytes(0), value: rows.bytes(1)) else {
                throw SQLiteError(code: SQLITE_NOTADB, message: "a stored record of version 1 is not of stage format 2")
            }
            if StateSchema.totalKinds.contains(kind) {
                try total.run([.text(kind), .bytes(key), .bytes(value)])
            } else {
                try record.run([.text(kind), .bytes(key), .bytes(value)])
            }
        }
        try upgradeAggregates(connection)
        // Its three indexes (opens by click, install records and orders by unit) are made anew as
        // links from the records by the migration from version 2.
        try connection.execute("""
            DROP TABLE records_v1; DROP TABLE open_clicks; DROP TABLE unit_installs; DROP TABLE unit_orders;
            """)
    }

    /// Version 2 kept records as stage record text found by their CRC-32, which anyone who sends
    /// ids can aim at (a million ids of one CRC made every night that touched one read them all).
    /// Its rows become binary rows (`StateRows`) under the keyed digest, and its links, which kept
    /// only digests of what they name, are made anew from the records that name a click or a unit.
    static func fromVersion2(_ connection: SQLiteConnection, store: StateStore) throws(StateError) {
        let names = StateNames(store: store)
        let select = try store.mapping { () throws(SQLiteError) in
            try connection.execute("DROP INDEX records_by_hash; ALTER TABLE records RENAME TO records_v2; DELETE FROM links")
            try connection.execute(StateSchema.rowTables)
            return try connection.prepare("SELECT key, value FROM records_v2 ORDER BY id")
        }
        var done = false
        while !done {
            // A chunk of rows at a time: a record is the merge of its rows, so the rows of one key
            // need not be read together, and memory stays that of a chunk. (A statement stepped
            // past its end starts again, so the last step is the last.)
            var chunk = RecordDecoder()
            for _ in 0..<20_000 {
                guard try store.mapping({ () throws(SQLiteError) in try select.step() }) else {
                    done = true
                    break
                }
                try StateRecordText.read(select.bytes(0), select.bytes(1), into: &chunk, path: store.path)
            }
            try store.appendRecordRows(StateRows.rows(of: chunk.state, names: names, digest: store.digest))
            try store.addLinks(IncrementalMerge.links(of: chunk.state, digest: store.digest, names: names))
        }
        try store.mapping { () throws(SQLiteError) in
            select.reset()
            try connection.execute("""
                DROP TABLE records_v2;
                ALTER TABLE runs ADD COLUMN records_read INTEGER NOT NULL DEFAULT 0;
                PRAGMA user_version = \(StateSchema.version);
                """)
        }
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
