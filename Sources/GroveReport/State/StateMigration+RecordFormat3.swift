/// Version 3 keeps version 2's tables and stores stage records of format 3 (spelled-out kinds).
extension StateMigration {
    /// Rewrites every stored record of format 2 in format 3 (kind, KEY, VALUE and key hash), adds
    /// the links to the new hashes, and files in `totals` those a version 1 state left as records.
    static func fromVersion2(_ connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute("CREATE TEMP TABLE rehashed (old INTEGER NOT NULL, new INTEGER NOT NULL)")
        try upgradeRecords(connection)
        try upgradeTable("totals", scoped: false, connection)
        try upgradeTable("aggregates", scoped: true, connection)
        let totalKinds = StateSchema.totalKinds.sorted().map { "'\($0)'" }.joined(separator: ", ")
        try connection.execute("""
            CREATE INDEX temp.rehashed_by_old ON rehashed(old);
            INSERT OR IGNORE INTO links (hash, record_hash) SELECT l.hash, r.new FROM links l JOIN rehashed r ON r.old = l.record_hash;
            INSERT INTO totals (kind, key, value) SELECT kind, key, value FROM records WHERE kind IN (\(totalKinds));
            DELETE FROM records WHERE kind IN (\(totalKinds));
            DROP TABLE temp.rehashed;
            PRAGMA user_version = 3;
            """)
    }

    /// Upgrades `records` a batch of rows at a time, so memory stays bounded; notes changed hashes.
    private static func upgradeRecords(_ connection: SQLiteConnection) throws(SQLiteError) {
        let select = try connection.prepare("SELECT id, hash, key, value FROM records WHERE id > ? ORDER BY id LIMIT 4096")
        let update = try connection.prepare("UPDATE records SET hash = ?, kind = ?, key = ?, value = ? WHERE id = ?")
        let rehashed = try connection.prepare("INSERT INTO rehashed (old, new) VALUES (?, ?)")
        var last: Int64 = 0
        while true {
            var batch: [(id: Int64, hash: Int64, key: [UInt8], value: [UInt8])] = []
            try select.bind([.integer(last)])
            while try select.step() { batch.append((select.integer(0), select.integer(1), select.bytes(2), select.bytes(3))) }
            select.reset()
            guard let end = batch.last?.id else { return }
            last = end
            for row in batch {
                guard let upgraded = RecordFormat2.upgrade(key: row.key, value: row.value) else { continue }
                let hash = StateKeyHash.of(upgraded.key)
                try update.run([.integer(hash), .text(upgraded.kind), .bytes(upgraded.key), .bytes(upgraded.value), .integer(row.id)])
                if hash != row.hash { try rehashed.run([.integer(row.hash), .integer(hash)]) }
            }
        }
    }

    /// Upgrades a small table of records keyed by KEY (and preview scope when `scoped`).
    private static func upgradeTable(_ table: String, scoped: Bool, _ connection: SQLiteConnection) throws(SQLiteError) {
        let select = try connection.prepare("SELECT \(scoped ? "scope" : "''"), key, value FROM \(table)")
        var rows: [(scope: String, key: [UInt8], value: [UInt8])] = []
        while try select.step() { rows.append((select.text(0), select.bytes(1), select.bytes(2))) }
        let update = try connection.prepare(
            "UPDATE \(table) SET kind = ?, key = ?, value = ? WHERE key = ?" + (scoped ? " AND scope = ?" : ""))
        for row in rows {
            guard let upgraded = RecordFormat2.upgrade(key: row.key, value: row.value) else { continue }
            let match: [SQLiteStatement.Value] = scoped ? [.bytes(row.key), .text(row.scope)] : [.bytes(row.key)]
            try update.run([.text(upgraded.kind), .bytes(upgraded.key), .bytes(upgraded.value)] + match)
        }
    }
}
