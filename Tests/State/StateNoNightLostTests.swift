import Foundation
import Testing
@testable import GroveReport

/// No night lost (docs/STATE.md, The contract; issue 31, rows 5, 6 and 8), on the built binary:
/// a night whose commit landed but whose reports did not is completed, changes included, by
/// the next run; a log that could not be folded back into FILE is told on stderr; readers wait
/// for a writer like writers do.
@Suite(.serialized)
struct StateNoNightLostTests {
    /// Two nights' inputs and the `changes.csv` an uneventful second night writes.
    static func twoNights(in directory: String) throws -> (nights: [String], changes: [UInt8]) {
        let nights = try StateTests.splitLogs(into: directory, files: 2, seed: 41, events: 1500)
        let reference = directory + "/reference.db"
        for (index, night) in nights.enumerated() {
            let result = try execute(["run", "--state", reference, "--out", directory + "/reference-\(index)", "--max-reject-rate", "1", night])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let changes = try readFile(directory + "/reference-1/changes.csv")
        #expect(changes.count > "report,campaign,variant,column,previous,current\n".utf8.count)
        return (nights, changes)
    }

    static func statuses(_ state: String) throws -> [String] {
        let output = try commandOutput(["sqlite3", state, "SELECT status FROM runs ORDER BY id"])
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Reports that cannot be renamed into place (a directory where `report.html` goes): exit 74
    /// after the commit; the rerun writes the reports and lists the lost night's changes.
    @Test func aNightWhoseReportsFailedIsCompletedByTheNextRun() throws {
        let directory = try temporaryDirectory()
        let (nights, expected) = try Self.twoNights(in: directory)
        let state = directory + "/state.db"
        let out = directory + "/out"
        let options = ["--max-reject-rate", "1"]
        let first = try execute(["run", "--state", state, "--out", out] + options + [nights[0]])
        #expect(first.status == 0, "\(first.stderr)")
        try FileManager.default.removeItem(atPath: out + "/report.html")
        try FileManager.default.createDirectory(atPath: out + "/report.html/in-the-way", withIntermediateDirectories: true)
        let failed = try execute(["run", "--state", state, "--out", out] + options + [nights[1]])
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(try Self.statuses(state) == ["succeeded", "committed"])
        try FileManager.default.removeItem(atPath: out + "/report.html")
        // The documented rerun: the same command, its input now skipped.
        let rerun = try execute(["run", "--state", state, "--out", out] + options + [nights[1]])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try readFile(out + "/changes.csv") == expected)
        #expect(try StateTests.comparable(out) == StateTests.comparable(directory + "/reference-1"))
        #expect(try Self.statuses(state) == ["succeeded", "committed", "succeeded"])
        // The night after lists only what moved since the rerun.
        let after = try execute(["run", "--state", state, "--out", out] + options)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try readFile(out + "/changes.csv") == Array("report,campaign,variant,column,previous,current\n".utf8))
    }

    /// A kill between the commit and the reports.
    @Test func aNightKilledAfterItsCommitIsCompletedByTheNextRun() throws {
        let directory = try temporaryDirectory()
        let (nights, expected) = try Self.twoNights(in: directory)
        let state = directory + "/state.db"
        let out = directory + "/out"
        let first = try execute(["run", "--state", state, "--out", out, "--max-reject-rate", "1", nights[0]])
        #expect(first.status == 0, "\(first.stderr)")
        let killed = try execute(["run", "--state", state, "--out", out, "--max-reject-rate", "1", nights[1]],
                                 environment: ["GROVE_REPORT_TEST_KILL_AFTER_COMMIT": "1"])
        #expect(killed.killedBySignal && killed.status == SIGKILL, "\(killed.status) \(killed.stderr)")
        let rerun = try execute(["run", "--state", state, "--out", out, "--max-reject-rate", "1"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try readFile(out + "/changes.csv") == expected)
    }

    /// A real failure to fold: the night's log fits under a file size limit (`prlimit --fsize`,
    /// SIGXFSZ ignored so writes past it fail with EFBIG, as on a full disk) but the state file,
    /// already larger, cannot take its pages back. The run succeeds and says which side files
    /// hold the night; a later run with room folds them in.
    @Test func aLogThatCouldNotBeFoldedBackIsToldWithItsSideFiles() throws {
        let directory = try temporaryDirectory()
        // Events enough for a state well past the limit below (schema 6 stores them in less),
        // which a tiny night's log (about 16 pages of 16 KiB) stays under.
        let nights = try StateTests.splitLogs(into: directory, files: 1, seed: 42, events: 30000)
        let state = directory + "/state.db"
        let first = try execute(["run", "--state", state, "--out", directory + "/first", "--max-reject-rate", "1"] + nights)
        #expect(first.status == 0, "\(first.stderr)")
        let size = try readFile(state).count
        #expect(size > 900_000, "the state is too small for the limit below: \(size) bytes")
        let tiny = directory + "/tiny.ndjson"
        try writeFile(tiny, ndjson([
            #"{"type":"link_click","ts":"2026-03-05T10:00:00Z","clickId":"late-1","appKey":"k","slug":"s","route":"app","utm_campaign":"late"}"#,
        ]))
        let limited = try execute(
            ["-c", "trap '' XFSZ; exec prlimit --fsize=600000 \"$@\"", "sh",
             executablePath, "run", "--state", state, "--out", directory + "/limited", tiny],
            executable: "/bin/sh")
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stderr.contains("warning") && limited.stderr.contains("'\(state)-wal'") && limited.stderr.contains("'\(state)-shm'"),
                "\(limited.stderr)")
        #expect(limited.stderr.split(separator: "\n").count == 1, "\(limited.stderr)")
        #expect(FileManager.default.fileExists(atPath: state + "-wal"))
        // With room again, the next run folds the log in and leaves no side file.
        let folded = try execute(["run", "--state", state, "--out", directory + "/folded"])
        #expect(folded.status == 0 && folded.stderr.isEmpty, "\(folded.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state + "-wal"))
        #expect(try StateTests.runCount(state) == 3)
        let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + nights + [tiny])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(try StateTests.comparable(directory + "/folded") == StateTests.comparable(directory + "/single"))
    }

    /// `state FILE` while another connection holds the whole file (as a writer does while it
    /// closes): busy at once without `--lock-wait`, done once the holder lets go with it.
    @Test func theReaderWaitsForAWriterWithLockWait() throws {
        let directory = try temporaryDirectory()
        let nights = try StateTests.splitLogs(into: directory, files: 1, seed: 43, events: 500)
        let state = directory + "/state.db"
        let first = try execute(["run", "--state", state, "--out", directory + "/out", "--max-reject-rate", "1"] + nights)
        #expect(first.status == 0, "\(first.stderr)")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["sqlite3", state, "PRAGMA locking_mode = EXCLUSIVE", "BEGIN EXCLUSIVE", ".shell sleep 3", "COMMIT"]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer { holder.waitUntilExit() }
        var busy = try execute(["state", state])
        for _ in 0..<50 where busy.status == 0 {
            usleep(20_000)
            busy = try execute(["state", state])
        }
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.contains("--lock-wait"), "\(busy.stderr)")
        let started = Date()
        let waited = try execute(["state", state, "--lock-wait", "30"])
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stdout.hasPrefix("state schema version"))
        #expect(Date().timeIntervalSince(started) < 25)
        let checked = try execute(["state", state, "--check", "--lock-wait", "30"])
        #expect(checked.status == 0, "\(checked.stderr)")
    }
}
