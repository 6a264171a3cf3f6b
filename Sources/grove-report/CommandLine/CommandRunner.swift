import GroveGenerator
import GroveReport

/// Runs a command line end to end: parse, execute, print. Every problem goes to one
/// `DiagnosticsEngine`, which alone writes stderr and chooses the exit status.
enum CommandRunner {
    /// Executes the words after the program name; returns the process exit status.
    static func main(_ words: [String]) -> ExitStatus {
        var diagnostics = DiagnosticsEngine()
        do throws(UsageError) {
            let command = try Command.parse(words)
            diagnostics.speaker = command.speaker
            execute(command, &diagnostics)
        } catch {
            diagnostics.usage(error)
        }
        return diagnostics.exitStatus
    }

    private static func execute(_ command: Command, _ diagnostics: inout DiagnosticsEngine) {
        switch command {
        case .help(let text):
            diagnostics.printOut(text)
        case .run(let options) where options.statePath != nil:
            analyseWithState(options, &diagnostics)
        case .run(let options):
            analyse(options, validate: false, &diagnostics)
        case .validate(let options, let ciReports):
            analyse(options, validate: true, ciReports: ciReports, &diagnostics)
        case .state(let path, let action, let lockWaitSeconds):
            state(path, action, lockWaitSeconds: lockWaitSeconds, &diagnostics)
        case .generate(let options, let directory):
            generate(options, into: directory, &diagnostics)
        case .partial(let name, let index, let rejectsRaw):
            do throws(OutputError) {
                try StageCommands.partial(name: name, index: index, rejectsRaw: rejectsRaw)
            } catch {
                diagnostics.fail(error)
            }
        case .merge(let join, let scope, let windows):
            // A failed merge hands on no partial records: it writes only once it has read everything.
            do throws(RecordError) {
                diagnostics.printOut(try StageCommands.merge(join: join, scope: scope, windows: windows))
            } catch {
                diagnostics.fail(error)
            }
        case .render(let options):
            render(options, &diagnostics)
        }
    }

    /// `run` and `validate`: the pipeline; then `validate` prints the audit and the health
    /// warnings, and both write the CI formats asked for.
    private static func analyse(
        _ options: RunOptions, validate: Bool, ciReports: CIReportOptions = CIReportOptions(), _ diagnostics: inout DiagnosticsEngine) {
        let result: RunResult
        do throws(OutputError) {
            result = try withProgress { counters throws(OutputError) in try Pipeline.run(options, progress: counters) }
        } catch {
            diagnostics.fail(error)
            return
        }
        diagnostics.problems(of: result, maxRejectRate: options.maxRejectRate, violationsFail: validate)
        if validate {
            diagnostics.printOut(PreviewAuditReport.text(result.exposure.audit) + HealthWarningsText.text(result.exposure.campaigns))
        }
        reportToCI(result.exposure.audit, ciReports, &diagnostics)
    }

    private static func analyseWithState(_ options: RunOptions, _ diagnostics: inout DiagnosticsEngine) {
        var warnings: [StateWarning] = []
        do throws(StatefulRun.Failure) {
            let result = try withProgress { counters throws(StatefulRun.Failure) in
                try StatefulRun.run(options, statePath: options.statePath ?? "", progress: counters) { warnings.append($0) }
            }
            for warning in warnings { diagnostics.warn(warning) }
            diagnostics.problems(of: result, maxRejectRate: options.maxRejectRate, violationsFail: false)
        } catch {
            for warning in warnings { diagnostics.warn(warning) }
            diagnostics.fail(error)
        }
    }

    /// The JUnit file, the GitHub workflow commands on stdout, then the step summary.
    private static func reportToCI(_ audit: PreviewAudit, _ options: CIReportOptions, _ diagnostics: inout DiagnosticsEngine) {
        do throws(OutputError) {
            if let path = options.junitPath { try CIReports.writeJUnit(audit, to: path) }
            guard options.github else { return }
            diagnostics.printOut(GitHubWorkflowCommands.errors(audit))
            try CIReports.appendStepSummary(audit)
        } catch {
            diagnostics.fail(error)
        }
    }

    private static func render(_ options: Command.RenderOptions, _ diagnostics: inout DiagnosticsEngine) {
        do throws(StageFailure) {
            let result = try StageCommands.render(
                to: options.outputDirectory, configuration: options.configuration, maxCampaigns: options.maxCampaigns,
                sequentialTuning: options.sequentialTuning,
                rejectsRaw: options.rejectsRaw,
                wallSeconds: options.wallSeconds, lockWaitSeconds: options.lockWaitSeconds)
            diagnostics.problems(of: result, maxRejectRate: options.maxRejectRate, violationsFail: false)
        } catch {
            diagnostics.fail(error)
        }
    }

    private static func state(_ path: String, _ action: StateAction, lockWaitSeconds: Double, _ diagnostics: inout DiagnosticsEngine) {
        do throws(StateError) {
            switch action {
            case .check:
                diagnostics.printOut(try StateOverview.check(path: path, lockWaitSeconds: lockWaitSeconds) + "\n")
            case .compact:
                let compaction = try StateCompaction.compact(path: path, lockWaitSeconds: lockWaitSeconds)
                diagnostics.printOut(compaction.line + "\n")
                if let warning = compaction.warning { diagnostics.warn(warning) }
            case .describe, .describeAsJSON:
                let overview = try StateOverview(path: path, lockWaitSeconds: lockWaitSeconds)
                diagnostics.printOut(action == .describeAsJSON ? overview.json : Array(overview.text.utf8))
            }
        } catch {
            diagnostics.fail(error)
        }
    }

    private static func generate(_ options: GeneratorOptions, into directory: String, _ diagnostics: inout DiagnosticsEngine) {
        do throws(GeneratorError) {
            let summary = try LogGenerator.generate(options, into: directory)
            diagnostics.printOut(
                "wrote \(summary.lines) lines (\(summary.badLines) bad) in \(summary.files.count) files to \(directory)\n")
        } catch {
            diagnostics.fail(error)
        }
    }

    /// Runs `body` with a progress line on stderr when it is a terminal, erased before the
    /// command prints anything else.
    private static func withProgress<Result, Failure: Error>(
        _ body: (ProgressCounters?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let progress = ProgressLine.startIfTerminal()
        defer { progress?.stop() }
        return try body(progress?.counters)
    }
}
