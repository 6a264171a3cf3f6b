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
        case .run(let options):
            return analyse(options, printAudit: false)
        case .validate(let options):
            return analyse(options, printAudit: true)
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
        for inputError in result.accounting.inputErrors {
            printError("grove-report: input error: \(inputError.file): \(inputError.error) at byte \(inputError.offset)")
        }
        if result.rejectRate > options.maxRejectRate {
            let rate = DecimalFormat.shortest(result.rejectRate)
            printError("grove-report: \(result.accounting.rejectedTotal) of \(result.accounting.lines) lines rejected (rate \(rate) > --max-reject-rate \(DecimalFormat.shortest(options.maxRejectRate))); see rejects.ndjson")
        }
        if result.grona.audit.leakCheck != 0 {
            printError("grove-report: leak check failed: \(result.grona.audit.leakCheck) preview or consent-denied events reached the analysis (a bug: please report it)")
        }
        if printAudit { print(PreviewAuditReport.text(result.grona.audit), terminator: "") }
        return result.status(maxRejectRate: options.maxRejectRate, failOnViolations: printAudit)
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
