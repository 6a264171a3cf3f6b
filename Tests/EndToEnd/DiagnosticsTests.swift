import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport
@testable import grove_report

/// The one exit policy: the same failure claims the same code whichever command meets it.
struct DiagnosticsTests {
    @Test func aFailureClaimsTheSameCodeHoweverItIsWrapped() {
        let busy = OutputError.busy(path: "out", waitedSeconds: 0)
        let unwritable = OutputError.cannotWrite(path: "out/a.csv", reason: "No space left on device")
        let damaged = RecordError(line: 3, problem: "not KEY<TAB>VALUE")
        #expect(busy.exitStatus == .busy)
        #expect(StageFailure.output(busy).exitStatus == .busy)
        #expect(StatefulRun.Failure.output(busy).exitStatus == .busy)
        #expect(StateError.busy(path: "state.db").exitStatus == .busy)
        #expect(unwritable.exitStatus == .outputFailure)
        #expect(StageFailure.output(unwritable).exitStatus == .outputFailure)
        #expect(StateError.cannotWrite(path: "state.db", reason: "Read-only file system").exitStatus == .outputFailure)
        #expect(GeneratorError.writeFailed(path: "a.gz", reason: "No space left on device").exitStatus == .outputFailure)
        #expect(damaged.exitStatus == .inputProblem)
        #expect(StageFailure.records(damaged).exitStatus == .inputProblem)
        #expect(StateError.notAState(path: "x", reason: "not SQLite").exitStatus == .usage)
        #expect(StateError.damaged(path: "x", reason: "database disk image is malformed").exitStatus == .usage)
        #expect(StateError.cannotRead(path: "x", reason: "Permission denied").exitStatus == .outputFailure)
        #expect(StatefulRun.Failure.state(.damaged(path: "x", reason: "truncated")).exitStatus == .usage)
        #expect(GeneratorError.invalidDayCount(0).exitStatus == .usage)
        // A wrapper says what it wraps, so the stderr line does not depend on the command.
        #expect(StageFailure.output(unwritable).description == unwritable.description)
        #expect(StatefulRun.Failure.output(unwritable).description == unwritable.description)
    }

    /// Standard output that cannot be written exits 74 with one line, whatever the command prints.
    @Test func aFullStandardOutputExits74FromEveryCommand() throws {
        let directory = try temporaryDirectory()
        for arguments in [["--help"], ["state", "--help"], ["generate", "--out", directory, "--events", "10"],
                          ["validate", "-", "--github"]] {
            let result = try executeWithStdoutToDevFull(arguments, stdin: ndjson(EndToEndTests.good))
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr == "grove-report: cannot write 'standard output': No space left on device\n", "\(arguments)")
        }
    }
}
