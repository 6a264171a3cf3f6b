import CSQLite

/// Brings a state written by an older schema to the current one (version 7), inside the run's
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
        try rewriteRecords(
            connection, store: store, oldTable: "records_v2", dropping: version4Indexes, newTables: StateSchema.rowTables
        ) { select, chunk throws(StateError) in
            var decoder = RecordDecoder()
            decoder.state = take(&chunk, PartialState())
            try StateRecordText.read(select.bytes(0), select.bytes(1), into: &decoder, path: store.path)
            chunk = decoder.state
        }
        try store.mapping { () throws(SQLiteError) in
            try connection.execute("ALTER TABLE runs ADD COLUMN records_read INTEGER NOT NULL DEFAULT 0")
        }
    }

    /// Version 3 kept every id whole after its length; version 4 packs hex digits and UUIDs
    /// (`StateTextForm`). Its rows are rewritten, under the digests of their new keys, and the
    /// links, which name records by those digests, made anew from the records.
    static func fromVersion3(_ connection: SQLiteConnection, store: StateStore) throws(StateError) {
        try rewriteRows(connection, store: store, oldTable: "records_v3", format: .version3)
    }

    /// Version 4 found records and links through B-trees keyed by digest, which every night
    /// wrote at random places. Its rows are rewritten in the current form, as version 5's are.
    static func fromVersion4(_ connection: SQLiteConnection, store: StateStore) throws(StateError) {
        try rewriteRows(connection, store: store, oldTable: "records_v4", format: .version4)
    }

    /// Version 5 stored each row's key digest beside its key (9 bytes a row, and the key gives
    /// it), instants as Unix seconds and nanoseconds (ten bytes where six do), and index entries
    /// as 12 fixed bytes. Its rows are rewritten, and the key index and links written anew from
    /// them, in the current forms.
    static func fromVersion5(_ connection: SQLiteConnection, store: StateStore) throws(StateError) {
        try rewriteRows(
            connection, store: store, oldTable: "records_v5", format: .version4,
            dropping: "DROP TABLE index_runs; DROP TABLE index_chunks;")
    }

    /// Version 6 linked a unit to its install records and its orders by one link, so a night's
    /// install record, to find its own install's orders, read that install's record in every
    /// other campaign too. Version 7 links orders by the units they name apart
    /// (`StateKeyDigest.orders`): those links are added from the stored order rows, each row's
    /// (as a night links them). The old links stay; an order they also name is read once.
    static func fromVersion6(_ connection: SQLiteConnection, store: StateStore) throws(StateError) {
        let names = StateNames(store: store)
        var links: [StateIndexEntry] = []
        for row in try store.allRecordRows(keyed: { $0.first == OrderRecord.rowKind }) {
            var state = PartialState()
            try StateRows.read(CollectionOfOne(StateRows.Row(key: row.key, value: row.value)), into: &state, names: names)
            for order in state.exposure.orders.records {
                for unit in IncrementalMerge.units(of: order) {
                    links.append(StateIndexEntry(hash: IncrementalMerge.ordersDigest(unit, state.symbols, store.digest), target: row.digest))
                }
            }
        }
        try store.addLinks(links)
        try store.mapping { () throws(SQLiteError) in try connection.execute("PRAGMA user_version = \(StateSchema.version)") }
    }

    /// Rewrites binary rows of an older `format` (versions 3 to 5).
    private static func rewriteRows(
        _ connection: SQLiteConnection, store: StateStore, oldTable: String, format: StateRowReader.Format,
        dropping: String = version4Indexes
    ) throws(StateError) {
        let names = StateNames(store: store)
        try rewriteRecords(
            connection, store: store, oldTable: oldTable, dropping: dropping, newTables: StateSchema.recordTable
        ) { select, chunk throws(StateError) in
            let row = StateRows.Row(key: select.blob(0), value: select.blob(1))
            try StateRows.read(CollectionOfOne(row), into: &chunk, names: names, format: format)
        }
    }

    /// The indexes of versions 2 to 4 beside their records: a B-tree of digests, the links, and
    /// (versions 3 and 4) one Bloom filter of both.
    private static let version4Indexes = """
        DROP INDEX records_by_hash; DROP TABLE links; DROP TABLE IF EXISTS key_filter; DROP TABLE IF EXISTS key_filter_blocks;
        """

    /// Moves the records to `oldTable`, drops the old indexes (`dropping`), makes `newTables`,
    /// writes every one of its rows anew (`read` merges a row into a chunk), links them, and
    /// drops it. A chunk of rows at a time: a record is the merge of its
    /// rows, so the rows of one key need not be read together, and memory stays that of a chunk.
    private static func rewriteRecords(
        _ connection: SQLiteConnection, store: StateStore, oldTable: String, dropping: String, newTables: String,
        read: (SQLiteStatement, inout PartialState) throws(StateError) -> Void
    ) throws(StateError) {
        let names = StateNames(store: store)
        let select = try store.mapping { () throws(SQLiteError) in
            try connection.execute("\(dropping) ALTER TABLE records RENAME TO \(oldTable);")
            try connection.execute(newTables)
            return try connection.prepare("SELECT key, value FROM \(oldTable) ORDER BY id")
        }
        var done = false
        while !done {
            var chunk = PartialState()
            // (A statement stepped past its end starts again, so the last step is the last.)
            for _ in 0..<20_000 {
                guard try store.mapping({ () throws(SQLiteError) in try select.step() }) else {
                    done = true
                    break
                }
                try read(select, &chunk)
            }
            let rows = try StateRows.rows(of: chunk, names: names, digest: store.digest)
            try store.addLinks(IncrementalMerge.links(of: chunk, rows: rows, digest: store.digest))
            try store.appendRecordRows(rows)
        }
        try store.mapping { () throws(SQLiteError) in
            select.reset()
            try connection.execute("DROP TABLE \(oldTable); PRAGMA user_version = \(StateSchema.version);")
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
