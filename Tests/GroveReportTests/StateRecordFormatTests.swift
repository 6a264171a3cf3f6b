import Foundation
import Testing
@testable import GroveReport

/// A state of schema version 2 stores stage records of format 2 (kinds `acct`, `bind`, `inst`…):
/// the next run rewrites them in format 3 (docs/STATE.md, Schema) and goes on adding up.
@Suite(.serialized)
struct StateRecordFormatTests {
    /// `Tests/Fixtures/state-v2/state.sqlite`: the first two days of `Tests/Fixtures/state-v1`,
    /// ingested night by night by the release that wrote schema version 2.
    @Test func aVersion2StateIsUpgradedAndGoesOnAddingUp() throws {
        let (directory, state) = try nightOnOlderState("state-v2")
        #expect(try StateTests.comparable(directory + "/night") == StateTests.comparable(directory + "/single"))
        let version = try commandOutput(["sqlite3", state, "PRAGMA user_version"])
        #expect(String(decoding: version, as: UTF8.self) == "\(StateSchema.version)\n")
        let old = try commandOutput(["sqlite3", state, """
            SELECT count(*) FROM (SELECT value FROM records UNION ALL SELECT value FROM totals UNION ALL SELECT value FROM aggregates)
             WHERE value NOT LIKE '{"v":3%'
            """])
        #expect(String(decoding: old, as: UTF8.self) == "0\n")
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
