/// The tables of a state file (schema version 7: per-key records as binary rows found through
/// log-structured indexes (`StateIndex`), totals and
/// results as stage records of format 4), documented in docs/STATE.md. The version is SQLite's
/// `user_version`; a file of a newer version is refused, an older one migrated (`StateMigration`).
enum StateSchema {
    static let version = 7

    /// Record kinds that are totals over the whole input rather than per key: the state keeps
    /// one merged row of each in `totals`, outside the records a night loads.
    static let totalKinds: Set<String> = ["accounting", "campaign_counters", "audit_totals"]

    /// Record kinds of the join stages' per-campaign results, kept per preview scope.
    static let aggregateKinds: Set<String> = ["campaign_attribution", "variant_counts", "campaign_stats", "attribution_totals"]

    /// A column of a report history table and how its values are stored.
    struct HistoryColumn {
        enum Kind { case text, integer, boolean, decimal }
        var name: String
        var kind: Kind

        var sqlType: String {
            switch kind {
            case .text: "TEXT"
            case .integer, .boolean: "INTEGER"
            case .decimal: "REAL"
            }
        }
    }

    /// `attribution.csv`'s columns, in its header order.
    static let attributionColumns: [HistoryColumn] = AttributionReport.header.map {
        HistoryColumn(name: $0, kind: $0 == "campaign" ? .text : $0 == "attribution_rate" ? .decimal : .integer)
    }

    /// `exposure.csv`'s columns, in its header order.
    static let exposureColumns: [HistoryColumn] = ExposureReport.header.map { name in
        let integers: Set = ["units", "converted_units", "orders", "revenue_minor", "impressions"]
        let kind: HistoryColumn.Kind = name == "campaign" || name == "variant" ? .text
            : name == "control" ? .boolean : integers.contains(name) ? .integer : .decimal
        return HistoryColumn(name: name, kind: kind)
    }

    static func historyTable(_ name: String, _ columns: [HistoryColumn], key: [String]) -> String {
        let definitions = columns.map { "\"\($0.name)\" \($0.sqlType)" }.joined(separator: ", ")
        return "CREATE TABLE \(name) (run_id INTEGER NOT NULL REFERENCES runs(id), \(definitions), "
            + "PRIMARY KEY (run_id, \(key.joined(separator: ", "))));"
    }

    /// The per-key records (binary rows, `StateRows`, with the names they number), their indexes
    /// and the totals, as versions 6 and 7 have them.
    ///
    /// Records are appended (a night's rows land together at the end of the table) and merged on
    /// reading; the key index and the links are runs written once (`StateIndex`). A night thus
    /// writes new pages, not the old ones of every key it touches.
    static let recordTables = rowTables + totalsTable

    /// The rows and the names they number.
    static let rowTables = """
        CREATE TABLE names (id INTEGER PRIMARY KEY, text BLOB NOT NULL UNIQUE);
        \(recordTable)
        """

    /// The rows and their indexes (what the migrations from versions 2 and 3 write anew).
    static let recordTable = """
        CREATE TABLE records (id INTEGER PRIMARY KEY, rows BLOB NOT NULL);
        \(StateIndex.tables)
        """

    /// The totals: the same since version 2.
    static let totalsTable = """
        CREATE TABLE totals (kind TEXT NOT NULL, key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        """

    /// Version 2's records: stage record text (format 3), found by CRC-32. A version 1 state is
    /// migrated through it.
    static let version2RecordTables = """
        CREATE TABLE records (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
        CREATE INDEX records_by_hash ON records(hash);
        CREATE TABLE links (hash INTEGER NOT NULL, record_hash INTEGER NOT NULL, PRIMARY KEY (hash, record_hash)) WITHOUT ROWID;
        \(totalsTable)
        """

    /// The current version, created in one transaction.
    static var creation: String {
        """
        CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY, started TEXT NOT NULL, options TEXT NOT NULL, status TEXT NOT NULL,
            lines INTEGER NOT NULL, rejected INTEGER NOT NULL, records_read INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE inputs (
            run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT, sha256 TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL, lines INTEGER NOT NULL);
        CREATE INDEX inputs_by_name ON inputs(name);
        \(recordTables)
        CREATE TABLE aggregates (
            scope TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
            PRIMARY KEY (scope, key)) WITHOUT ROWID;
        \(historyTable("attribution_history", attributionColumns, key: ["campaign"]))
        \(historyTable("exposure_history", exposureColumns, key: ["campaign", "variant"]))
        PRAGMA user_version = \(version);
        """
    }
}
