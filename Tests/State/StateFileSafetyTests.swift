import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// What is not a state is left alone (docs/STATE.md, The contract; issue 31, rows 2, 3, 4 and 9):
/// an empty file, a file that is not SQLite, another program's database and a damaged state
/// are refused (exit 2) with not a byte changed and no side file made, and a state that a report
/// would replace is a usage error. All on the built binary.
@Suite(.serialized)
struct StateFileSafetyTests {
    /// A file's bytes and the SQLite side files beside it.
    struct Snapshot: Equatable {
        var bytes: [UInt8]
        var sideFiles: [String]

        init(_ path: String) throws {
            bytes = try readFile(path)
            sideFiles = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        }
    }

    static func sqlite(_ path: String, _ sql: String) throws {
        _ = try commandOutput(["sqlite3", path, sql])
    }

    /// A small state of two nights, closed cleanly (no side files), and a third night's input.
    static func smallState(in directory: String) throws -> (state: String, nextNight: String) {
        let files = try StateTests.splitLogs(into: directory, files: 3, seed: 31, events: 1500)
        let state = directory + "/state.db"
        for file in files.prefix(2) {
            let night = try execute(["run", "--state", state, "--out", directory + "/out", "--max-reject-rate", "1", file])
            #expect(night.status == 0, "\(night.stderr)")
        }
        return (state, files[2])
    }

    /// Runs a night on `state` and expects a refusal that names it and leaves it as it was.
    static func expectRefused(_ state: String, mentioning words: [String], _ directory: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try Snapshot(state)
        let result = try execute(["run", "--state", state, "--out", directory + "/refused", "--max-reject-rate", "1"])
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        for word in [state] + words {
            #expect(result.stderr.contains(word), "\(word) not in: \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try Snapshot(state) == before, "\(state) was changed", sourceLocation: sourceLocation)
        // The reader says the same and changes nothing either.
        let described = try execute(["state", state])
        #expect(described.status == 2, "\(described.stderr)", sourceLocation: sourceLocation)
        #expect(try Snapshot(state) == before, "state \(state) changed it", sourceLocation: sourceLocation)
    }

    // MARK: Row 2: another program's database

    @Test func anotherProgramsDatabaseIsLeftUntouched() throws {
        let directory = try temporaryDirectory()
        let databases: [(String, String)] = [
            ("plain.db", "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ann');"),
            ("wal.db", "PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x');"),
            ("version1.db", "CREATE TABLE meta (name TEXT, value TEXT); CREATE TABLE runs (id); PRAGMA user_version = 1;"),
            ("version2.db", "PRAGMA journal_mode = WAL; CREATE TABLE records (key, value); PRAGMA user_version = 2;"),
            // grove-report's tables, but not the salt a state is made with.
            ("unsalted.db", StateSchema.creation),
            ("vacuumed.db", "VACUUM;"),
        ]
        for (name, sql) in databases {
            let path = directory + "/" + name
            try Self.sqlite(path, sql)
            try Self.expectRefused(path, mentioning: ["not a grove-report state"], directory)
        }
        // The first release's states still migrate (StateLayoutTests), and a state is still a state.
        let (state, _) = try Self.smallState(in: directory)
        let again = try execute(["run", "--state", state, "--out", directory + "/again"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aFileThatIsNotSQLiteOrNotAFileIsLeftAlone() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/notes.txt", Array("just some text, not SQLite\n".utf8))
        try Self.expectRefused(directory + "/notes.txt", mentioning: ["not an SQLite database"], directory)
        let result = try execute(["run", "--state", directory, "--out", directory + "/out"])
        #expect(result.status == 2, "\(result.stderr)")
    }

    // MARK: Row 3: an empty file

    @Test func anEmptyFileIsNotANewState() throws {
        let directory = try temporaryDirectory()
        let empty = directory + "/empty.db"
        try writeFile(empty, [])
        try Self.expectRefused(empty, mentioning: ["is empty"], directory)
        // A missing file is still created as a new state, with nothing left beside it.
        let created = try execute(["run", "--state", directory + "/new.db", "--out", directory + "/out"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try StateTests.runCount(directory + "/new.db") == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".new.db") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    // MARK: Row 4: a damaged state

    @Test func aTruncatedStateIsRefusedWithTheRebuildAndNeverWritten() throws {
        let directory = try temporaryDirectory()
        let (state, night) = try Self.smallState(in: directory)
        let whole = try readFile(state)
        for cut in [50, 4096, whole.count / 2, whole.count - 4096] {
            let truncated = directory + "/truncated-\(cut).db"
            try writeFile(truncated, Array(whole.prefix(cut)))
            try Self.expectRefused(truncated, mentioning: ["damaged", "rebuild", "run --state"], directory)
            let check = try execute(["state", truncated, "--check"])
            #expect(check.status == 2, "\(check.stderr)")
            #expect(check.stderr.contains("damaged") && check.stderr.split(separator: "\n").count == 1, "\(check.stderr)")
        }
        // The sound state passes the check and takes the next night.
        let check = try execute(["state", state, "--check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "state '\(state)' passed SQLite's integrity check\n")
        let next = try execute(["run", "--state", state, "--out", directory + "/next", "--max-reject-rate", "1", night])
        #expect(next.status == 0, "\(next.stderr)")
    }

    /// A page SQLite reads on every night (the root of `runs`) made unreadable: the night stops
    /// with exit 2 and the rebuild, the file as it was, and no `-wal`/`-shm` left beside it.
    @Test func aStateWithADamagedPageIsRefusedWithTheRebuildAndNeverWritten() throws {
        let directory = try temporaryDirectory()
        let (state, night) = try Self.smallState(in: directory)
        let root = try #require(Int(String(decoding: try commandOutput(
            ["sqlite3", state, "SELECT rootpage FROM sqlite_master WHERE name = 'runs'"]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        var bytes = try readFile(state)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        // The page's type byte: no b-tree page has type 0x77.
        bytes[(root - 1) * pageSize] = 0x77
        try writeFile(state, bytes)
        let before = try Snapshot(state)
        let result = try execute(["run", "--state", state, "--out", directory + "/out", "--max-reject-rate", "1", night])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(state) && result.stderr.contains("damaged") && result.stderr.contains("rebuild"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try Snapshot(state) == before)
        let check = try execute(["state", state, "--check"])
        #expect(check.status == 2, "\(check.stderr)")
        #expect(check.stderr.contains("damaged") && check.stderr.split(separator: "\n").count == 1, "\(check.stderr)")
    }

    /// Damage where a night does not look (an index entry of an input's name) is not worth a
    /// night's reading the whole file (docs/DECISIONS.md): `state FILE --check` finds it.
    @Test func damageANightDoesNotReadIsFoundByTheCheck() throws {
        let directory = try temporaryDirectory()
        let (state, _) = try Self.smallState(in: directory)
        let root = try #require(Int(String(decoding: try commandOutput(
            ["sqlite3", state, "SELECT rootpage FROM sqlite_master WHERE name = 'inputs_by_name'"]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        var bytes = try readFile(state)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let page = (root - 1) * pageSize..<root * pageSize
        let name = Array("part-".utf8)
        let at = try #require(page.first { bytes[$0..<min($0 + name.count, page.upperBound)].elementsEqual(name) })
        bytes[at] = UInt8(ascii: "X")
        try writeFile(state, bytes)
        let check = try execute(["state", state, "--check"])
        #expect(check.status == 2, "\(check.stderr)")
        #expect(check.stderr.contains("integrity check: row") && check.stderr.contains("inputs_by_name"), "\(check.stderr)")
        #expect(check.stderr.split(separator: "\n").count == 1, "\(check.stderr)")
    }

    @Test func checkTakesNoJSONAndNeedsAState() throws {
        let directory = try temporaryDirectory()
        let both = try execute(["state", directory + "/x.db", "--check", "--json"])
        #expect(both.status == 2)
        let missing = try execute(["state", directory + "/x.db", "--check"])
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/x.db"))
    }

    // MARK: Row 9: a state that a report would replace

    @Test func aStateNamingAReportOfTheRunIsAUsageError() throws {
        let directory = try temporaryDirectory()
        let (state, _) = try Self.smallState(in: directory)
        let out = directory + "/out"
        try writeFile(out + "/summary.json", try readFile(state))
        let original = try Snapshot(out + "/summary.json")
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.db", withDestinationPath: out + "/summary.json")
        for (statePath, outPath) in [(out + "/summary.json", out), (directory + "/./out/../out/summary.json", out + "/"),
                                     (directory + "/link.db", out), ("out/summary.json", "./out"),
                                     (directory + "/fresh/report.html", directory + "/fresh/.")] {
            let result = try execute(["run", "--state", statePath, "--out", outPath], in: directory)
            #expect(result.status == 2, "\(statePath): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("--state"), "\(result.stderr)")
            #expect(try Snapshot(out + "/summary.json") == original)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/fresh"))
        // A state of its own name in the output directory is fine.
        let beside = try execute(["run", "--state", out + "/state.db", "--out", out])
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    /// `StatePath.reportNames` lists every file a run writes, so a new report cannot slip past it.
    @Test func everyFileARunWritesIsAReportName() throws {
        let directory = try temporaryDirectory()
        let (_, night) = try Self.smallState(in: directory)
        let result = try execute(["run", "--state", directory + "/state.db", "--out", directory + "/named", "--max-reject-rate", "1", night])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory + "/named")
        #expect(Set(written).isSubset(of: Set(StatePath.reportNames)), "\(written)")
        #expect(Set(written) == Set(StatePath.reportNames))
    }
}
