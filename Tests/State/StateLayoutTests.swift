import Foundation
import Testing
@testable import GroveReport

/// How the state stores records (schema version 6, docs/STATE.md): rows appended and merged on
/// reading, found through index runs, compacted once a key has many, and states of versions 1 to
/// 5 migrated in place.
@Suite(.serialized)
struct StateLayoutTests {
    /// The most rows any record key has in the state.
    static func mostRowsOfOneKey(_ state: String) throws -> Int {
        var rows: [[UInt8]: Int] = [:]
        for row in try storedRows(state) { rows[row.key, default: 0] += 1 }
        return rows.values.max() ?? 0
    }

    /// Every stored row (its address, key and value), read out of the blocks that hold them
    /// (`StateRowBlock`), without the slots compaction emptied.
    static func storedRows(_ state: String) throws -> [(address: Int64, key: [UInt8], value: [UInt8])] {
        let connection = try SQLiteConnection(path: state)
        let select = try connection.prepare("SELECT id, rows FROM records ORDER BY id")
        defer { select.reset() }
        var rows: [(address: Int64, key: [UInt8], value: [UInt8])] = []
        while try select.step() {
            let block = try #require(StateRowBlock.decode(select.blob(1)), "block \(select.integer(0))")
            for (slot, row) in block.enumerated() where !row.key.isEmpty {
                rows.append((StateRowBlock.address(block: select.integer(0), slot: slot), row.key, row.value))
            }
        }
        return rows
    }

    /// The bytes of every stored row's key and value.
    static func storedRowBytes(_ state: String) throws -> Int {
        try storedRows(state).reduce(0) { $0 + $1.key.count + $1.value.count }
    }

    /// A new state has 16 KiB pages and vacuums incrementally: the pages a night's index merges
    /// and compaction free go back at its commit, so the file holds no free page between nights.
    @Test func aNightLeavesNoFreePage() throws {
        let directory = try temporaryDirectory()
        let files = try StateTests.splitLogs(into: directory, files: 10, seed: 23, events: 6000)
        let state = directory + "/state.db"
        var runs: [Int] = []
        for file in files {
            let night = try execute(["run", "--state", state, "--out", directory + "/out", "--max-reject-rate", "1", file])
            #expect(night.status == 0, "\(night.stderr)")
            #expect(try Self.scalar(state, "PRAGMA page_size") == "16384")
            #expect(try Self.scalar(state, "PRAGMA auto_vacuum") == "2")
            #expect(try Self.scalar(state, "PRAGMA freelist_count") == "0")
            runs.append(Int(try Self.scalar(state, "SELECT count(*) FROM index_runs")) ?? 0)
        }
        // Some night merged runs of one size class: it freed pages, and gave them back.
        #expect(zip(runs, runs.dropFirst()).contains { $0 > $1 }, "index runs after each night: \(runs)")
    }

    @Test func keysTouchedEveryNightAreCompactedAndStillAddUp() throws {
        let directory = try temporaryDirectory()
        // Shuffled shares of few events: the same installs and clicks come back night after night,
        // and one click every night.
        let nights = IncrementalMerge.compactionRows + 4
        let files = try StateTests.splitLogs(into: directory, files: nights, seed: 21, events: 1500)
        for (night, file) in files.enumerated() {
            let click = #"{"type":"link_click","ts":"2026-03-0\#(night % 9 + 1)T00:00:00Z","clickId":"every-night","appKey":"k","slug":"s","route":"app"}"#
            // A second gzip member: the file is read whole.
            try writeFile(file, try readFile(file) + gzip(Array((click + "\n").utf8)))
        }
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + files)
        #expect(single.status == 0, "\(single.stderr)")
        let state = directory + "/state.db"
        for (night, file) in files.enumerated() {
            let result = try execute(["run", "--state", state, "--out", directory + "/night-\(night)", "--max-reject-rate", "1", file])
            #expect(result.status == 0, "night \(night): \(result.stderr)")
            // Rows accumulate until a read rewrites them as one.
            if night == IncrementalMerge.compactionRows - 2 { #expect(try Self.mostRowsOfOneKey(state) == night + 1) }
        }
        // Without compaction one key would have a row a night; with it, at most one more than it keeps.
        #expect(try Self.mostRowsOfOneKey(state) <= IncrementalMerge.compactionRows)
        #expect(try StateTests.comparable(directory + "/night-\(nights - 1)") == StateTests.comparable(directory + "/single"))

        // What the state holds, by kind: the click that came back every night is one key in rows.
        let described = try execute(["state", state])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(described.stdout.contains("records click: "), "\(described.stdout)")
        #expect(described.stdout.contains("bytes records: "), "\(described.stdout)")
        // `--compact` rewrites every key kept in several rows as one, and the reports stay.
        let compacted = try execute(["state", state, "--compact"])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        #expect(compacted.stdout.contains("stored in several rows rewritten as one"), "\(compacted.stdout)")
        #expect(try Self.mostRowsOfOneKey(state) == 1)
        let after = try execute(["run", "--state", state, "--out", directory + "/after", "--max-reject-rate", "1"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try StateTests.comparable(directory + "/after") == StateTests.comparable(directory + "/single"))
        #expect(try execute(["state", state, "--compact", "--check"]).status == 2)
    }

    /// `Tests/Fixtures/state-v1`: three days of `generate --days 3 --events 3000 --seed 5`, the
    /// first two ingested into `state.sqlite` by the release that wrote schema version 1.
    @Test func aVersion1StateIsMigratedAndGoesOnAddingUp() throws {
        let fixture = packageRoot + "/Tests/Fixtures/state-v1"
        let directory = try temporaryDirectory()
        let state = directory + "/state.sqlite"
        try writeFile(state, try readFile(fixture + "/state.sqlite"))
        let days = ["2026-03-02", "2026-03-03", "2026-03-04"].map { fixture + "/events-\($0).ndjson.gz" }
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + days)
        #expect(single.status == 0, "\(single.stderr)")
        let night = try execute(["run", "--state", state, "--out", directory + "/night", "--max-reject-rate", "1"] + days)
        #expect(night.status == 0, "\(night.stderr)")
        #expect(try StateTests.comparable(directory + "/night") == StateTests.comparable(directory + "/single"))
        let summary = try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/night/summary.json"))) as? [String: Any]
        let inputs = try #require((summary?["run"] as? [String: Any])?["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["status"] as? String } == ["skipped", "skipped", "ingested"])
        let version = try commandOutput(["sqlite3", state, "PRAGMA user_version"])
        #expect(String(decoding: version, as: UTF8.self) == "\(StateSchema.version)\n")
        let tables = try commandOutput(["sqlite3", state, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"])
        #expect(!String(decoding: tables, as: UTF8.self).contains("open_clicks"))
        // Every stored totals and aggregates record now has the spelled-out kinds of format 3
        // (migrated) or a later one (written since); the per-key records are binary rows since schema 3.
        let old = try commandOutput(["sqlite3", state, """
            SELECT count(*) FROM (SELECT value FROM totals UNION ALL SELECT value FROM aggregates)
             WHERE value NOT LIKE '{"v":3%' AND value NOT LIKE '{"v":4%' AND value NOT LIKE '{"v":5%'
            """])
        #expect(String(decoding: old, as: UTF8.self) == "0\n")
    }

    /// `Tests/Fixtures/state-v3`: the first two days of `state-v1` ingested by the release that
    /// wrote schema version 3 (ids kept whole in the rows). Migrated, its ids are packed under the
    /// digests of their new keys, links and key filter made anew, and nights go on adding up.
    @Test func aVersion3StateIsMigratedWithItsIdsPacked() throws {
        let (fixtures, directory, state) = try Self.copiedFixture("state-v3")
        let bytesBefore = Int(try Self.scalar(state, "SELECT sum(length(key) + length(value)) FROM records")) ?? 0
        // Made with 4 KiB pages, which it keeps: the page size is the file's from its creation.
        #expect(try Self.scalar(state, "PRAGMA page_size") == "4096")
        let days = ["2026-03-02", "2026-03-03", "2026-03-04"].map { fixtures + "/state-v1/events-\($0).ndjson.gz" }
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + days)
        #expect(single.status == 0, "\(single.stderr)")
        // Migrated without a new input: the same reports as before, the rows packed.
        let migrated = try execute(["run", "--state", state, "--out", directory + "/migrated", "--max-reject-rate", "1"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let twoDays = try execute(["run", "--out", directory + "/two", "--max-reject-rate", "1"] + days.prefix(2))
        #expect(twoDays.status == 0)
        #expect(try StateTests.comparable(directory + "/migrated") == StateTests.comparable(directory + "/two"))
        #expect(try Self.scalar(state, "PRAGMA user_version") == "\(StateSchema.version)")
        let bytesAfter = try Self.storedRowBytes(state)
        #expect(bytesAfter * 5 < bytesBefore * 4, "\(bytesBefore) bytes of rows before, \(bytesAfter) after")
        // A click key: its kind, the form header, `clk_`, the digit count and 8 bytes.
        #expect(try Self.storedRows(state).filter { $0.key.first == 1 }.map(\.key.count).max() == 15)
        let night = try execute(["run", "--state", state, "--out", directory + "/night", "--max-reject-rate", "1"] + days)
        #expect(night.status == 0, "\(night.stderr)")
        #expect(try StateTests.comparable(directory + "/night") == StateTests.comparable(directory + "/single"))
        try Self.expectEveryRowUnderItsKeyDigest(state)
    }

    /// `Tests/Fixtures/state-v4` and `state-v5`: the first two days of `state-v1` ingested by the
    /// releases that wrote schema versions 4 (a B-tree index of record digests, links in a
    /// B-tree, one Bloom filter of both) and 5 (index runs of fixed-width entries, each row's
    /// digest stored beside it, instants as Unix seconds and nanoseconds), one night each in
    /// version 5. Migrated, the old indexes are gone, the rows are smaller and every one is in
    /// the key index under its key's digest; nights go on adding up.
    @Test(arguments: ["state-v4", "state-v5"])
    func aVersion4Or5StateIsMigratedWithItsRowsRewritten(fixture: String) throws {
        let (fixtures, directory, state) = try Self.copiedFixture(fixture)
        let bytesBefore = Int(try Self.scalar(state, "SELECT sum(length(key) + length(value)) FROM records")) ?? 0
        let days = ["2026-03-02", "2026-03-03", "2026-03-04"].map { fixtures + "/state-v1/events-\($0).ndjson.gz" }
        try Self.expectMigrated(state, reportingAsARunOver: Array(days.prefix(2)), in: directory)
        let tables = try Self.scalar(state, "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master ORDER BY name)")
        for gone in ["records_by_hash", "links", "key_filter", "key_filter_blocks", "records_v4", "records_v5"] {
            #expect(!tables.split(separator: " ").contains(Substring(gone)), "\(tables)")
        }
        #expect(try Self.scalar(state, "SELECT group_concat(name, ' ') FROM pragma_table_info('records')") == "id rows")
        #expect(try Self.scalar(state, "PRAGMA page_size") == "4096")
        // Each instant takes six bytes instead of ten (about 5 % of these rows).
        let bytesAfter = try Self.storedRowBytes(state)
        #expect(bytesAfter * 25 < bytesBefore * 24, "\(bytesBefore) bytes of rows before, \(bytesAfter) after")
        try Self.expectEveryRowUnderItsKeyDigest(state)
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + days)
        #expect(single.status == 0, "\(single.stderr)")
        let night = try execute(["run", "--state", state, "--out", directory + "/night", "--max-reject-rate", "1"] + days)
        #expect(night.status == 0, "\(night.stderr)")
        #expect(try StateTests.comparable(directory + "/night") == StateTests.comparable(directory + "/single"))
        try Self.expectEveryRowUnderItsKeyDigest(state)
    }

    /// `Tests/Fixtures/state-v6`: the first two days of `state-v1` ingested, one night each, by
    /// the release that wrote schema version 6, which linked a unit's orders only under the link
    /// of its install records. Migrated, every stored order row is linked by the units it names
    /// under a link of its own, nothing else changes, and nights go on adding up: the third
    /// day's install records find the orders of their installs through those links, and
    /// `late-decision.ndjson` (a first decision of a new campaign, logged before an order of its
    /// install that the state holds) finds its conversion.
    @Test func aVersion6StateGainsALinkFromEachUnitToItsOrders() throws {
        let (fixtures, directory, state) = try Self.copiedFixture("state-v6")
        #expect(try Self.scalar(state, "PRAGMA user_version") == "6")
        let linksBefore = Int(try Self.scalar(state, "SELECT sum(entries) FROM index_runs WHERE kind = 1")) ?? 0
        let rowsBefore = try Self.storedRows(state)
        let orderRows = rowsBefore.filter { $0.key.first == OrderRecord.rowKind }.count
        #expect(orderRows > 0)
        let days = ["2026-03-02", "2026-03-03", "2026-03-04"].map { fixtures + "/state-v1/events-\($0).ndjson.gz" }
            + [fixtures + "/state-v6/late-decision.ndjson"]
        try Self.expectMigrated(state, reportingAsARunOver: Array(days.prefix(2)), in: directory)
        // Each order names its install, and its customer when it has one.
        let linksAdded = (Int(try Self.scalar(state, "SELECT sum(entries) FROM index_runs WHERE kind = 1")) ?? 0) - linksBefore
        #expect(linksAdded >= orderRows && linksAdded <= 2 * orderRows, "\(linksAdded) links for \(orderRows) order rows")
        #expect(try Self.storedRows(state).map(\.key) == rowsBefore.map(\.key))
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + days)
        #expect(single.status == 0, "\(single.stderr)")
        let night = try execute(["run", "--state", state, "--out", directory + "/night", "--max-reject-rate", "1"] + days)
        #expect(night.status == 0, "\(night.stderr)")
        #expect(try StateTests.comparable(directory + "/night") == StateTests.comparable(directory + "/single"))
        let exposure = try String(decoding: readFile(directory + "/night/exposure.csv"), as: UTF8.self)
        #expect(exposure.contains("\nlate-test,a,false,1,1,1.0,1,999,"), "\(exposure)")
    }

    /// `Tests/Fixtures/state-v2`: a state of schema version 2 (CRC-32 digests, stage record text)
    /// written by the release before stage format 4, its records of format 3 (no
    /// `previewUnidentifiedCustomer`): the first two days of `state-v1` and
    /// `preview-unidentified-1.ndjson` (one preview decision of a customer unit without
    /// `customerId`) ingested. Migrated, its rows are binary under the state's keyed digests; nights
    /// go on adding up; the preview decision it ingested before the upgrade counts 0
    /// (docs/STATE.md, Stage format 4).
    @Test func aVersion2StateIsMigratedAndCountsUnidentifiedPreviewsFromTheUpgradeOn() throws {
        let (fixtures, directory, state) = try Self.copiedFixture("state-v2")
        let linksBefore = try Self.scalar(state, "SELECT count(*) FROM links")
        let inputs = ["state-v1/events-2026-03-02.ndjson.gz", "state-v1/events-2026-03-03.ndjson.gz",
                      "state-v2/preview-unidentified-1.ndjson", "state-v1/events-2026-03-04.ndjson.gz",
                      "state-v2/preview-unidentified-2.ndjson"].map { fixtures + "/" + $0 }
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + inputs)
        #expect(single.status == 0, "\(single.stderr)")
        let night = try execute(["run", "--state", state, "--out", directory + "/night", "--max-reject-rate", "1"] + inputs)
        #expect(night.status == 0, "\(night.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/night/summary.json"))) as? [String: Any]
        let statuses = try #require((summary?["run"] as? [String: Any])?["inputs"] as? [[String: Any]]).map { $0["status"] as? String }
        #expect(statuses == ["skipped", "skipped", "skipped", "ingested", "ingested"])

        // vip-offer: pu-1 (ingested before the upgrade), pu-4 and pu-5 (consent denied) are
        // preview customer-unit decisions without customerId; one run counts 3, the state 2.
        let expected = try StateTests.comparable(directory + "/single")
        var actual = try StateTests.comparable(directory + "/night")
        for key in expected.keys.sorted() where key != "preview_audit.json" && key != "report.html" {
            #expect(actual[key] == expected[key], "\(key) differs")
        }
        let one = try #require(expected["preview_audit.json"])
        #expect(one.components(separatedBy: #""preview_unidentified_customer": 3"#).count - 1 == 2, "\(one)")
        #expect(actual["preview_audit.json"] == one.replacingOccurrences(
            of: #""preview_unidentified_customer": 3"#, with: #""preview_unidentified_customer": 2"#))

        // The totals are rewritten in the current format (the results recomputed in it, Σr²
        // included: the reports equal one run's, revenue interval and all); every per-key row is binary under the keyed digest,
        // and the links (which kept only digests) are made anew, as many as before.
        #expect(try commandOutput(["sqlite3", state, #"SELECT count(*) FROM (SELECT value FROM totals UNION ALL SELECT value FROM aggregates) WHERE value NOT LIKE '{"v":5,%'"#]) == Array("0\n".utf8))
        #expect(try Self.scalar(state, "PRAGMA user_version") == "\(StateSchema.version)")
        #expect(Int(try Self.scalar(state, "SELECT sum(entries) FROM index_runs WHERE kind = 1")) ?? 0 >= Int(linksBefore) ?? .max)
        try Self.expectEveryRowUnderItsKeyDigest(state)
        let again = try execute(["run", "--state", state, "--out", directory + "/again", "--max-reject-rate", "1"])
        #expect(again.status == 0, "\(again.stderr)")
        actual = try StateTests.comparable(directory + "/again")
        #expect(actual == (try StateTests.comparable(directory + "/night")))
    }

    @Test func format3RecordsAreReadAsTheCurrentFormat() throws {
        let counters = Array(#"["campaign_counters","c"]"#.utf8)
        let old = Array(#"{"v":3,"previewDecisions":2,"previewImpressions":0,"previewGrants":0,"decisions":3,"missingCustomer":1,"previewPairings":0,"linkViolations":[0,0,0,0]}"#.utf8)
        #expect(RecordFormat3.upgrade(key: counters, value: old) == Array(
            #"{"v":5,"previewDecisions":2,"previewImpressions":0,"previewGrants":0,"decisions":3,"missingCustomer":1,"previewPairings":0,"linkViolations":[0,0,0,0],"previewUnidentifiedCustomer":0}"#.utf8))
        #expect(RecordFormat3.upgrade(key: Array(#"["variant_counts","c","v"]"#.utf8), value: Array(#"{"v":3,"counts":[1]}"#.utf8))
            == Array(#"{"v":5,"counts":[1]}"#.utf8))
        // Already current, or older: not format 3.
        #expect(RecordFormat3.upgrade(key: counters, value: Array(#"{"v":4,"decisions":1}"#.utf8)) == nil)
        #expect(RecordFormat3.upgrade(key: counters, value: Array(#"{"v":33,"decisions":1}"#.utf8)) == nil)
        #expect(RecordFormat3.upgrade(key: counters, value: Array(#"{"v":2,"decisions":1}"#.utf8)) == nil)
        // The upgraded record decodes, with the new count 0.
        var decoder = RecordDecoder()
        try decoder.read(ArraySlice(counters + [0x09] + (RecordFormat3.upgrade(key: counters, value: old) ?? [])))
        #expect(decoder.state.exposure.counters.records.first?.previewUnidentifiedCustomer == 0)
        #expect(decoder.state.exposure.counters.records.first?.missingCustomer == 1)
    }

    /// One value of a query on the state, as the sqlite3 shell prints it.
    /// Every stored row is in the key index under the state's keyed digest of its key.
    static func expectEveryRowUnderItsKeyDigest(_ state: String) throws {
        let salt = try Self.scalar(state, "SELECT value FROM meta WHERE name = 'email_salt'")
        let digest = StateKeyDigest(salt: Array(salt.utf8))
        var rows: [Int64: Int64] = [:]
        for row in try storedRows(state) { rows[row.address] = digest.of(row.key) }
        let index = StateIndex(kind: .recordKeys, connection: try SQLiteConnection(path: state))
        var found: [Int64: Int64] = [:]
        for entry in try index.entries(of: Array(Set(rows.values))) where rows[entry.target] != nil { found[entry.target] = entry.hash }
        #expect(!rows.isEmpty)
        #expect(found == rows)
    }

    /// A copy of `Tests/Fixtures/NAME/state.sqlite` in a new directory, and the fixtures' folder.
    static func copiedFixture(_ name: String) throws -> (fixtures: String, directory: String, state: String) {
        let fixtures = packageRoot + "/Tests/Fixtures"
        let directory = try temporaryDirectory()
        let state = directory + "/state.sqlite"
        try writeFile(state, try readFile(fixtures + "/\(name)/state.sqlite"))
        return (fixtures, directory, state)
    }

    /// Opens `state` with no input, which migrates it to the current schema, and expects the
    /// reports of a plain run over `inputs` (what it had ingested).
    static func expectMigrated(_ state: String, reportingAsARunOver inputs: [String], in directory: String) throws {
        let plain = try execute(["run", "--out", directory + "/plain", "--max-reject-rate", "1"] + inputs)
        #expect(plain.status == 0, "\(plain.stderr)")
        let migrated = try execute(["run", "--state", state, "--out", directory + "/migrated", "--max-reject-rate", "1"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try StateTests.comparable(directory + "/migrated") == StateTests.comparable(directory + "/plain"))
        #expect(try scalar(state, "PRAGMA user_version") == "\(StateSchema.version)")
    }

    static func scalar(_ state: String, _ query: String) throws -> String {
        String(decoding: try commandOutput(["sqlite3", state, query]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func format2RecordsGetTheirSpelledOutKinds() throws {
        let upgraded = try #require(RecordFormat2.upgrade(key: Array(#"["cv","c","v"]"#.utf8), value: Array(#"{"v":2,"counts":[1]}"#.utf8)))
        #expect(upgraded.kind == "variant_counts")
        #expect(upgraded.key == Array(#"["variant_counts","c","v"]"#.utf8))
        #expect(upgraded.value == Array(#"{"v":3,"counts":[1]}"#.utf8))
        #expect(RecordFormat2.upgrade(key: Array(#"["click","c"]"#.utf8), value: Array(#"{"v":2}"#.utf8))?.kind == "click")
        #expect(RecordFormat2.upgrade(key: Array(#"["variant_counts","c","v"]"#.utf8), value: Array(#"{"v":3,"counts":[1]}"#.utf8)) == nil)
        #expect(Set(RecordFormat2.renamedKinds.values).isSubset(of: Set(StageRecordKinds.all.map { $0.kind })))
    }
}
