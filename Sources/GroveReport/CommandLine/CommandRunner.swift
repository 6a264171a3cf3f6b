import Foundation

/// Runs a command line end to end: parse, execute, print, and choose the exit status.
public enum CommandRunner {
    /// Executes the words after the program name; returns the process exit status.
    public static func main(_ words: [String]) -> ExitStatus {
        let command: Command
        do throws(UsageError) {
            command = try Command.parse(words)
        } catch {
            printError(error.description)
            return .usage
        }
        switch command {
        case .help(let text):
            print(text, terminator: "")
            return .success
        case .run(let options) where options.statePath != nil:
            return analyseWithState(options)
        case .run(let options):
            return analyse(options, printAudit: false)
        case .state(let path, let json):
            do throws(StateError) {
                let overview = try StateOverview(path: path)
                if json { FileHandle.standardOutput.write(Data(overview.json)) } else { print(overview.text, terminator: "") }
                return .success
            } catch {
                printError("grove-report: \(error)")
                return status(for: error)
            }
        case .validate(let options):
            return analyse(options, printAudit: true)
        case .partial(let name, let index, let rejectsRaw):
            return runStage("partial") { () throws(OutputError) in try StageCommands.partial(name: name, index: index, rejectsRaw: rejectsRaw) }
        case .merge(let join, let scope):
            return runStage("merge") { () throws(RecordError) in try StageCommands.merge(join: join, scope: scope) }
        case .render(let options):
            do {
                let result = try StageCommands.render(
                    to: options.outputDirectory, configuration: options.configuration, rejectsRaw: options.rejectsRaw,
                    wallSeconds: options.wallSeconds)
                reportProblems(result, maxRejectRate: options.maxRejectRate)
                return result.status(maxRejectRate: options.maxRejectRate, failOnViolations: false)
            } catch {
                printError("grove-report render: \(error)")
                return .inputProblem
            }
        case .generate(let options, let directory):
            do {
                let summary = try LogGenerator.generate(options, into: directory)
                print("wrote \(summary.lines) lines (\(summary.badLines) bad) in \(summary.files.count) files to \(directory)")
                return .success
            } catch {
                printError("grove-report: \(error)")
                return .usage
            }
        }
    }

    private static func analyse(_ options: RunOptions, printAudit: Bool) -> ExitStatus {
        let progress = ProgressLine.startIfTerminal()
        let result: RunResult
        do throws(OutputError) {
            result = try Pipeline.run(options, progress: progress?.counters)
        } catch {
            progress?.stop()
            printError("grove-report: \(error)")
            return .usage
        }
        progress?.stop()
        reportProblems(result, maxRejectRate: options.maxRejectRate)
        if printAudit {
            print(PreviewAuditReport.text(result.grona.audit), terminator: "")
            print(HealthWarningsText.text(result.grona.exposure), terminator: "")
        }
        do throws(OutputError) {
            try CIReports.emit(result.grona.audit, options.ciReports)
        } catch {
            printError("grove-report: \(error)")
            return .outputFailure
        }
        return result.status(maxRejectRate: options.maxRejectRate, failOnViolations: printAudit)
    }

    private static func analyseWithState(_ options: RunOptions) -> ExitStatus {
        let progress = ProgressLine.startIfTerminal()
        defer { progress?.stop() }
        let result: RunResult
        do throws(StatefulRun.Failure) {
            result = try StatefulRun.run(options, statePath: options.statePath ?? "", progress: progress?.counters)
        } catch {
            progress?.stop()
            switch error {
            case .state(let failure):
                printError("grove-report: \(failure)")
                return status(for: failure)
            case .output(let failure):
                printError("grove-report: \(failure)")
                return .outputFailure
            }
        }
        progress?.stop()
        reportProblems(result, maxRejectRate: options.maxRejectRate)
        return result.status(maxRejectRate: options.maxRejectRate, failOnViolations: false)
    }

    /// The exit status of a state that could not be used.
    static func status(for error: StateError) -> ExitStatus {
        switch error {
        case .busy: .busy
        case .newerSchema, .notAState, .changedInput: .usage
        case .cannotWrite: .outputFailure
        }
    }

    /// Runs a stage filter: its output goes to stdout only when it succeeded, so a failed stage
    /// never hands on partial records.
    private static func runStage<Failure: Error>(_ name: String, _ body: () throws(Failure) -> [UInt8]) -> ExitStatus {
        do {
            let output = try body()
            FileHandle.standardOutput.write(Data(output))
            return .success
        } catch {
            printError("grove-report \(name): \(error)")
            return .inputProblem
        }
    }

    /// One stderr line per input error, rejected-line excess or leak.
    private static func reportProblems(_ result: RunResult, maxRejectRate: Double) {
        for inputError in result.accounting.inputErrors {
            printError("grove-report: input error: \(inputError.file): \(inputError.error) at byte \(inputError.offset)")
        }
        if result.rejectRate > maxRejectRate {
            let rate = DecimalFormat.shortest(result.rejectRate)
            printError("grove-report: \(result.accounting.rejectedTotal) of \(result.accounting.lines) lines rejected (rate \(rate) > --max-reject-rate \(DecimalFormat.shortest(maxRejectRate))); see rejects.ndjson")
        }
        if result.grona.audit.leakCheck != 0 {
            printError("grove-report: leak check failed: \(result.grona.audit.leakCheck) preview or consent-denied events reached the analysis (a bug: please report it)")
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
