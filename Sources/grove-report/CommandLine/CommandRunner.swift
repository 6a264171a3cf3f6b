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
                return error.status
            }
        case .validate(let options):
            return analyse(options, printAudit: true)
        case .partial(let name, let index, let rejectsRaw):
            return runStage("partial") { try StageCommands.partial(name: name, index: index, rejectsRaw: rejectsRaw) }
        case .merge(let join, let scope):
            return runStage("merge") {
                var output = StandardOutput()
                try output.write(try StageCommands.merge(join: join, scope: scope))
                try output.flush()
            }
        case .render(let options):
            do {
                let result = try StageCommands.render(
                    to: options.outputDirectory, configuration: options.configuration, rejectsRaw: options.rejectsRaw,
                    wallSeconds: options.wallSeconds, lockWaitSeconds: options.lockWaitSeconds)
                reportProblems(result, maxRejectRate: options.maxRejectRate)
                return result.status(maxRejectRate: options.maxRejectRate, failOnViolations: false)
            } catch let error as OutputError {
                printError("grove-report render: \(error)")
                return error.status
            } catch {
                printError("grove-report render: \(error)")
                return .inputProblem
            }
        case .generate(let options, let directory):
            do {
                let summary = try LogGenerator.generate(options, into: directory)
                print("wrote \(summary.lines) lines (\(summary.badLines) bad) in \(summary.files.count) files to \(directory)")
                return .success
            } catch let error as GeneratorError {
                printError("grove-report: \(error)")
                return error.status
            } catch {
                printError("grove-report: \(error)")
                return .outputFailure
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
            return error.status
        }
        progress?.stop()
        reportProblems(result, maxRejectRate: options.maxRejectRate)
        let status = result.status(maxRejectRate: options.maxRejectRate, failOnViolations: printAudit)
        var statuses = [status]
        if printAudit {
            do throws(OutputError) {
                var output = StandardOutput()
                let text = PreviewAuditReport.text(result.grona.audit) + HealthWarningsText.text(result.grona.exposure)
                try output.write(Array(text.utf8))
                try output.flush()
            } catch {
                printError("grove-report: \(error)")
                statuses.append(error.status)
            }
        }
        do throws(OutputError) {
            try CIReports.emit(result.grona.audit, options.ciReports)
        } catch {
            printError("grove-report: \(error)")
            statuses.append(error.status)
        }
        return ExitStatus.first(of: statuses)
    }

    private static func analyseWithState(_ options: RunOptions) -> ExitStatus {
        let progress = ProgressLine.startIfTerminal()
        let result: RunResult
        do throws(StatefulRun.Failure) {
            result = try StatefulRun.run(options, statePath: options.statePath ?? "", progress: progress?.counters)
        } catch {
            progress?.stop()
            switch error {
            case .state(let failure):
                printError("grove-report: \(failure)")
                return failure.status
            case .output(let failure):
                printError("grove-report: \(failure)")
                return failure.status
            }
        }
        progress?.stop()
        reportProblems(result, maxRejectRate: options.maxRejectRate)
        return result.status(maxRejectRate: options.maxRejectRate, failOnViolations: false)
    }

    /// Runs a stage filter: a record it cannot read exits 1, output it cannot write 74; a failed
    /// `merge` never hands on partial records (it writes only once it has read everything).
    private static func runStage(_ name: String, _ body: () throws -> Void) -> ExitStatus {
        do {
            try body()
            return .success
        } catch let error as OutputError {
            printError("grove-report \(name): \(error)")
            return error.status
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
