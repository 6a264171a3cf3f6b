/// The tables of a state file (schema version 1), documented in docs/STATE.md. The version is
/// SQLite's `user_version`; a file of a newer version is refused, an older one migrated.
enum StateSchema {
    static let version = 1

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

    /// Version 1, created in one transaction.
    static var creation: String {
        """
        CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY, started TEXT NOT NULL, options TEXT NOT NULL, status TEXT NOT NULL,
            lines INTEGER NOT NULL, rejected INTEGER NOT NULL);
        CREATE TABLE inputs (
            run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT, sha256 TEXT NOT NULL UNIQUE,
            size INTEGER NOT NULL, lines INTEGER NOT NULL);
        CREATE INDEX inputs_by_name ON inputs(name);
        CREATE TABLE records (kind TEXT NOT NULL, key TEXT NOT NULL PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE open_clicks (open_key TEXT PRIMARY KEY, click_id TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX open_clicks_by_click ON open_clicks(click_id);
        CREATE TABLE unit_installs (unit TEXT NOT NULL, install_key TEXT NOT NULL, PRIMARY KEY (unit, install_key)) WITHOUT ROWID;
        CREATE TABLE unit_orders (unit TEXT NOT NULL, order_key TEXT NOT NULL, PRIMARY KEY (unit, order_key)) WITHOUT ROWID;
        CREATE TABLE aggregates (
            scope TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
            PRIMARY KEY (scope, key)) WITHOUT ROWID;
        \(historyTable("attribution_history", attributionColumns, key: ["campaign"]))
        \(historyTable("exposure_history", exposureColumns, key: ["campaign", "variant"]))
        PRAGMA user_version = \(version);
        """
    }
}
