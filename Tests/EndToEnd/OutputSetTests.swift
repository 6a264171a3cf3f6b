import Foundation
import Testing
@testable import GroveReport
@testable import grove_report

/// Consistent report sets (docs/OUTPUTS.md, Writing atomically): the `outputs` manifest, one writer per directory,
/// no temporaries left behind, exit 74 for outputs that cannot be written.
@Suite(.serialized)
struct OutputSetTests {
    static let linesA = EndToEndTests.good
    static let linesB = [
        #"{"type":"link_click","ts":"2026-03-02T10:00:00Z","clickId":"c7","appKey":"k","slug":"s","route":"store","utm_campaign":"autumn"}"#,
    ]

    /// The `outputs` of a directory's `summary.json`.
    func manifest(_ directory: String) throws -> [String: String] {
        let summary = try #require(JSONValue.parse(try readFile(directory + "/summary.json")))
        guard case .object(let members)? = summary["outputs"] else {
            Issue.record("summary.json has no outputs object")
            return [:]
        }
        var hashes: [String: String] = [:]
        for (name, value) in members {
            guard case .string(let hash) = value else { continue }
            hashes[name] = hash
        }
        return hashes
    }

    /// The files whose SHA-256 differs from what `summary.json` lists.
    func mismatches(_ directory: String) throws -> [String] {
        try manifest(directory).filter { name, hash in
            SHA256Digest.hex(try readFile(directory + "/" + name)) != hash
        }.keys.sorted()
    }

    /// Hidden entries (temporaries, scratch directories) in `directory`.
    func hiddenEntries(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".") }.sorted()
    }

    @Test func summaryListsEveryOtherFileWithItsSHA256() throws {
        let out = try temporaryDirectory()
        let result = try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesA))
        #expect(result.status == 0, "\(result.stderr)")
        let hashes = try manifest(out)
        #expect(hashes.keys.sorted() == reportNames.filter { $0 != "summary.json" }.sorted())
        #expect(try mismatches(out) == [])
        #expect(hashes["rejects.ndjson"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "SHA-256 of nothing")
        let text = String(decoding: try readFile(out + "/summary.json"), as: UTF8.self)
        #expect(text.contains(#""outputs": {"#))
    }

    @Test func aKillBetweenRenamesLeavesAMixTheHashesReveal() throws {
        let out = try temporaryDirectory()
        #expect(try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesA)).status == 0)
        let before = try reportContents(out)
        let killed = try execute(
            ["run", "-", "--out", out], stdin: ndjson(Self.linesB),
            environment: ["GROVE_REPORT_TEST_KILL_AFTER_RENAMES": "2"])
        #expect(killed.killedBySignal && killed.status == SIGKILL)
        // Renamed in the order written: the two attribution files are the new run's, the rest
        // and summary.json the old run's, whose hashes give the two new files away.
        #expect(try mismatches(out) == ["attribution.csv", "attribution.json"])
        let after = try reportContents(out)
        #expect(after["exposure.csv"] == before["exposure.csv"] && after["summary.json"] == before["summary.json"])
        #expect(after["attribution.csv"]?.contains("autumn") == true)
        // SIGKILL left the dead run's temporaries; the next run removes them.
        #expect(try !hiddenEntries(out).isEmpty)
        #expect(try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesB)).status == 0)
        #expect(try hiddenEntries(out) == [])
        #expect(try mismatches(out) == [])
    }

    @Test func staleTemporariesOfDeadRunsAreRemovedAndLiveOnesKept() throws {
        let out = try temporaryDirectory()
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = finished.processIdentifier
        let live = ProcessInfo.processInfo.processIdentifier
        try writeFile(out + "/.grove-report-\(dead)-123/rejects-0.ndjson", Array("x\n".utf8))
        try writeFile(out + "/.attribution.csv.\(dead).tmp", Array("half".utf8))
        try writeFile(out + "/.exposure.json.\(live).tmp", Array("in use".utf8))
        try writeFile(out + "/.keep-me", [])
        let result = try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesA))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try hiddenEntries(out) == [".exposure.json.\(live).tmp", ".keep-me"])
    }

    @Test func temporaryNamesGiveTheirOwnersPID() {
        #expect(StaleTemporaries.ownerPID(of: ".grove-report-4242-18446744073709551615") == 4242)
        #expect(StaleTemporaries.ownerPID(of: ".summary.json.77.tmp") == 77)
        #expect(StaleTemporaries.ownerPID(of: ".report.html.9.tmp") == 9)
        #expect(StaleTemporaries.ownerPID(of: "summary.json") == nil)
        #expect(StaleTemporaries.ownerPID(of: ".notes.tmp") == nil)
        #expect(StaleTemporaries.ownerPID(of: ".grove-report-4242") == nil)
        #expect(StaleTemporaries.ownerPID(of: ".grove-report-x-1") == nil)
    }

    @Test func aSecondRunOnTheSameDirectoryExits75AndChangesNothing() throws {
        let out = try temporaryDirectory()
        #expect(try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesA)).status == 0)
        let before = try reportContents(out)
        let first = try RunningExecution(["run", "-", "--out", out])
        try waitForScratchDirectory(in: out)
        let started = Date()
        let second = try execute(["run", "-", "--out", out, "--lock-wait", "0.3"], stdin: ndjson(Self.linesB))
        #expect(second.status == 75)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(second.stderr.split(separator: "\n").count == 1 && second.stderr.contains("in use by another run"), "\(second.stderr)")
        let validate = try execute(["validate", "-", "--out", out], stdin: ndjson(Self.linesB))
        #expect(validate.status == 75)
        let finished = try first.finish(ndjson(Self.linesA))
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(try reportContents(out).filter { $0.key != "summary.json" } == before.filter { $0.key != "summary.json" })
        #expect(try hiddenEntries(out) == [])
    }

    @Test func aRunWaitsForTheLockUpToLockWait() throws {
        let out = try temporaryDirectory()
        let first = try RunningExecution(["run", "-", "--out", out])
        try waitForScratchDirectory(in: out)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            try? first.input.fileHandleForWriting.close()
        }
        let second = try execute(["run", "-", "--out", out, "--lock-wait", "20"], stdin: ndjson(Self.linesB))
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try first.wait().status == 0)
        #expect(try reportContents(out)["attribution.csv"]?.contains("autumn") == true)
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aStopSignalRemovesEveryTemporaryAndExits(_ signal: Int32, _ status: Int32) throws {
        let out = try temporaryDirectory()
        #expect(try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesA)).status == 0)
        let before = try reportContents(out)
        let running = try RunningExecution(["run", "-", "--out", out, "--rejects-raw"])
        running.input.fileHandleForWriting.write(Data(ndjson(Self.linesB + ["not json"])))
        try waitForScratchDirectory(in: out)
        kill(running.process.processIdentifier, signal)
        let result = try running.wait()
        #expect(!result.killedBySignal && result.status == status)
        #expect(try hiddenEntries(out) == [])
        #expect(try reportContents(out) == before)
    }

    @Test func outputsThatCannotBeWrittenExit74FromEveryCommand() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/file", [])
        try writeFile(directory + "/in.ndjson", ndjson(Self.linesA))
        let blocked = directory + "/file/out"
        for arguments in [
            ["run", "in.ndjson", "--out", blocked], ["validate", "in.ndjson", "--out", blocked],
            ["render", "--out", blocked], ["generate", "--out", blocked, "--events", "10"],
        ] {
            let result = try execute(arguments, in: directory)
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr == "grove-report\(arguments[0] == "render" ? " render" : ""): cannot create output directory '\(blocked)': Not a directory; choose another --out\(arguments[0] == "generate" ? ", or fix the path or its permissions" : "")\n", "\(result.stderr)")
        }
        for (stage, input) in [(["partial", "--name", "a"], "{}\n"), (["merge"], ""), (["validate", "-"], "{}\n")] {
            let status = try executeWithStdoutToDevFull(stage, stdin: Array(input.utf8))
            #expect(status.status == 74, "\(stage)")
            #expect(status.stderr.hasSuffix("cannot write 'standard output': No space left on device\n"), "\(status.stderr)")
        }
    }

    @Test func usageErrorsComeBeforeBusyAndOutputFailures() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/file", [])
        let result = try execute(["run", "-", "-", "--out", directory + "/file/out"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'-' (standard input) may be given only once"))
        #expect(ExitStatus.first(of: [.violations, .inputProblem, .outputFailure, .busy]) == .busy)
        #expect(ExitStatus.first(of: [.violations, .outputFailure, .inputProblem]) == .outputFailure)
        #expect(ExitStatus.first(of: [.violations, .inputProblem]) == .inputProblem)
        #expect(ExitStatus.first(of: []) == .success)
    }

    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let probe = try? temporaryDirectory("probe") else { return false }
        let status = runCommand(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe])
        if status == 0 { _ = runCommand(["umount", probe]) }
        return status == 0
    }()

    @Test(.enabled(if: canMountTmpfs, "needs root to mount a tiny tmpfs"))
    func aFullDiskExits74AndKeepsThePreviousSet() throws {
        let out = try temporaryDirectory()
        #expect(runCommand(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", out]) == 0)
        defer { _ = runCommand(["umount", out]) }
        #expect(try execute(["run", "-", "--out", out], stdin: ndjson(Self.linesA)).status == 0)
        let before = try reportContents(out)
        // About 600 KB of rejects: more than the disk holds.
        let bad = Array(repeating: #"{"type":"link_click","ts":"2026-03-02T10:00:00Z"}"#, count: 10_000)
        let result = try execute(["run", "-", "--out", out, "--max-reject-rate", "1"], stdin: ndjson(Self.linesB + bad))
        #expect(result.status == 74)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(try reportContents(out) == before)
        #expect(try mismatches(out) == [])
        #expect(try hiddenEntries(out) == [])
    }

    /// Waits until a run has made its scratch directory in `directory` (it holds the lock then).
    func waitForScratchDirectory(in directory: String) throws {
        for _ in 0..<400 {
            if try hiddenEntries(directory).contains(where: { $0.hasPrefix(".grove-report-") }) { return }
            usleep(25_000)
        }
        Issue.record("no run started in \(directory)")
    }
}

/// Runs a system command; its exit status.
func runCommand(_ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

/// Runs the executable with standard output on `/dev/full`, where every write fails.
func executeWithStdoutToDevFull(_ arguments: [String], stdin: [UInt8]) throws -> ExecutionResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath)
    process.arguments = arguments
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let errorPath = try temporaryDirectory("devfull") + "/stderr"
    try writeFile(errorPath, [])
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    try process.run()
    input.fileHandleForWriting.write(Data(stdin))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return ExecutionResult(
        status: process.terminationStatus, stdout: "", stderr: String(decoding: try readFile(errorPath), as: UTF8.self))
}
