import Foundation
import GroveReport

/// Collects the problems of one command as values; the stderr lines and the exit status are
/// derived from them here and nowhere else (the model is swift-format's `DiagnosticsEngine`).
///
/// Each line is written to stderr when its problem is found, so it keeps its place among the
/// command's other output. A command's own failure is told under its `speaker`, so the log of a
/// distributed run shows which stage filter failed; a problem of the data (an input error, too
/// many rejects, a leak) reads the same from every command.
struct DiagnosticsEngine {
    /// One problem: the exit status it claims and its stderr line, nil when stdout reports it.
    struct Diagnostic: Equatable {
        var status: ExitStatus
        var line: String?
    }

    static let tool = "grove-report"

    private(set) var diagnostics: [Diagnostic] = []
    /// `grove-report`, or `grove-report merge` for a stage filter.
    var speaker = DiagnosticsEngine.tool
    /// Set once standard output failed: later output is dropped, its loss already reported.
    private var standardOutputFailed = false

    /// The exit status: the first, in `ExitStatus.precedence`, of the statuses claimed.
    var exitStatus: ExitStatus { ExitStatus.first(of: diagnostics.map(\.status)) }

    mutating func usage(_ error: UsageError) {
        add(Diagnostic(status: .usage, line: error.description))
    }

    mutating func fail(_ failure: some CommandFailure) {
        add(Diagnostic(status: failure.exitStatus, line: "\(speaker): \(failure)"))
    }

    /// Something to tell on stderr that fails nothing (exit status unchanged).
    mutating func warn(_ warning: some CustomStringConvertible) {
        add(Diagnostic(status: .success, line: "\(speaker): \(warning)"))
    }

    /// The problems of the data a run read: input errors, rejected lines above `maxRejectRate` and
    /// a failed leak check exit 1; with `violationsFail` (`validate`, whose audit on stdout names
    /// them), audit violations exit 3.
    mutating func problems(of result: RunResult, maxRejectRate: Double, violationsFail: Bool) {
        for inputError in result.accounting.inputErrors {
            dataProblem("input error: \(inputError.file): \(inputError.error) at byte \(inputError.offset)")
        }
        if result.rejectRate > maxRejectRate {
            let rate = DecimalFormat.shortest(result.rejectRate)
            dataProblem(
                "\(result.accounting.rejectedTotal) of \(result.accounting.lines) lines rejected (rate \(rate) > "
                    + "--max-reject-rate \(DecimalFormat.shortest(maxRejectRate))); see rejects.ndjson")
        }
        if result.exposure.audit.leakCheck != 0 {
            dataProblem(
                "leak check failed: \(result.exposure.audit.leakCheck) preview or consent-denied events reached the "
                    + "analysis (a bug: please report it)")
        }
        if violationsFail && result.exposure.audit.violations.total > 0 {
            add(Diagnostic(status: .violations, line: nil))
        }
    }

    /// Writes `text` to standard output; a failure to is one diagnostic (74), however much follows.
    mutating func printOut(_ text: String) {
        printOut(Array(text.utf8))
    }

    mutating func printOut(_ bytes: [UInt8]) {
        guard !standardOutputFailed else { return }
        var output = StandardOutput()
        do throws(OutputError) {
            try output.write(bytes)
            try output.flush()
        } catch {
            standardOutputFailed = true
            fail(error)
        }
    }

    private mutating func dataProblem(_ message: String) {
        add(Diagnostic(status: .inputProblem, line: "\(Self.tool): \(message)"))
    }

    private mutating func add(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
        if let line = diagnostic.line { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
