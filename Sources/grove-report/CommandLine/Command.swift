#if canImport(Glibc)
import Glibc
#endif
import GroveGenerator
import GroveReport

/// A parsed command line.
enum Command: Sendable {
    case run(RunOptions)
    /// `run`'s options and the CI formats only `validate` speaks.
    case validate(RunOptions, ciReports: CIReportOptions = CIReportOptions())
    case generate(GeneratorOptions, outputDirectory: String)
    /// One input file on stdin → stage records on stdout.
    case partial(name: String, index: Int, rejectsRaw: Bool)
    /// Stage records → merged stage records, after join stage `join` when given.
    case merge(join: Int?, scope: PreviewScope, windows: AnalysisWindows)
    /// Final stage records → the report files.
    case render(RenderOptions)
    /// Print a state's runs and contents for people, or as JSON; run SQLite's integrity check on
    /// it; or compact it.
    case state(path: String, action: StateAction, lockWaitSeconds: Double)
    /// Print this help text and exit 0.
    case help(String)

    /// What `render` needs besides its records.
    struct RenderOptions: Sendable {
        var outputDirectory: String
        var configuration: Configuration?
        var maxCampaigns: Int
        var sequentialTuning: Int
        var maxRejectRate: Double
        var rejectsRaw: Bool
        var wallSeconds: Double
        var lockWaitSeconds: Double
    }

    /// Parses the words after the program name.
    static func parse(_ words: [String]) throws(UsageError) -> Command {
        guard let first = words.first else { return .help(HelpText.tool) }
        let rest = Array(words.dropFirst())
        if ["--help", "-h", "help"].contains(first) {
            guard let topic = rest.first else { return .help(HelpText.tool) }
            guard let text = HelpText.forCommand(topic) else {
                throw UsageError("no help for '\(topic)': the commands are \(CommandName.listed(CommandName.everyday, conjunction: "and"))")
            }
            return .help(text)
        }
        guard let name = CommandName(rawValue: first) else {
            throw UsageError("unknown command '\(first)': use \(CommandName.listed(CommandName.everyday, conjunction: "or"))")
        }
        if rest.contains("--help") || rest.contains("-h") { return .help(HelpText.forCommand(name)) }
        switch name {
        case .run: return .run(try analysisOptions(rest, command: .run))
        case .validate: return try validate(rest)
        case .generate: return try generate(rest)
        case .state: return try state(rest)
        case .partial, .merge, .render: return try stage(name, rest)
        }
    }

    /// The stage filters of a distributed run (see `docs/SPARK.md`).
    private static func stage(_ command: CommandName, _ words: [String]) throws(UsageError) -> Command {
        let arguments = try ArgumentList(
            words, command: command,
            valued: [
                "name", "index", "join", "preview-scope", "out", "config", "max-reject-rate", "wall-seconds", "lock-wait",
                "max-campaigns", "sequential-tuning", "conversion-window", "bind-window",
            ],
            flags: ["rejects-raw"])
        guard arguments.positionals.isEmpty else {
            throw UsageError("\(command) reads standard input and takes no inputs", command: command)
        }
        switch command {
        case .partial:
            guard let name = arguments.value("name") else {
                throw UsageError("partial needs --name: the input's name in reports", command: command)
            }
            return .partial(name: name, index: try arguments.number("index", default: 0, in: 0...Int.max), rejectsRaw: arguments.has("rejects-raw"))
        case .merge:
            let join: Int? = arguments.value("join") == nil ? nil : try arguments.number("join", default: 1, in: 1...3)
            return .merge(join: join, scope: try previewScope(arguments, command: command), windows: try windows(arguments))
        default:
            guard let out = arguments.value("out") else { throw UsageError("\(command) needs --out DIR", command: command) }
            return .render(RenderOptions(
                outputDirectory: out, configuration: try configuration(arguments, command: command),
                maxCampaigns: try maxCampaigns(arguments), sequentialTuning: try sequentialTuning(arguments),
                maxRejectRate: try arguments.number("max-reject-rate", default: RunOptions.defaultMaxRejectRate, in: 0...1),
                rejectsRaw: arguments.has("rejects-raw"), wallSeconds: try arguments.number("wall-seconds", default: 0, in: 0...1e12),
                lockWaitSeconds: try arguments.number("lock-wait", default: 0, in: 0...1e9)))
        }
    }

    /// `--max-campaigns N`: a whole number of at least 1, however large.
    private static func maxCampaigns(_ arguments: ArgumentList) throws(UsageError) -> Int {
        guard let text = arguments.value("max-campaigns") else { return RunOptions.defaultMaxCampaigns }
        guard let number = Int(text), number >= 1 else {
            throw UsageError("--max-campaigns must be a whole number of at least 1, not '\(text)'", command: arguments.command)
        }
        return number
    }

    /// `--sequential-tuning UNITS`: T of the always-valid interval, a whole number of at least 1.
    private static func sequentialTuning(_ arguments: ArgumentList) throws(UsageError) -> Int {
        guard let text = arguments.value("sequential-tuning") else { return RunOptions.defaultSequentialTuning }
        guard let number = Int(text), number >= 1 else {
            throw UsageError("--sequential-tuning must be a whole number of units of at least 1, not '\(text)'", command: arguments.command)
        }
        return number
    }

    /// `--conversion-window HOURS` (1 to 87600) and `--bind-window DAYS` (1 to 3650), whole numbers.
    private static func windows(_ arguments: ArgumentList) throws(UsageError) -> AnalysisWindows {
        func bounded(_ name: String, _ range: ClosedRange<Int>, _ unit: String) throws(UsageError) -> Int? {
            guard let text = arguments.value(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(
                    "--\(name) must be a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                    command: arguments.command)
            }
            return number
        }
        return AnalysisWindows(
            conversionHours: try bounded("conversion-window", AnalysisWindows.conversionHoursRange, "hours"),
            bindDays: try bounded("bind-window", AnalysisWindows.bindDaysRange, "days"))
    }

    private static func previewScope(_ arguments: ArgumentList, command: CommandName) throws(UsageError) -> PreviewScope {
        guard let scope = arguments.value("preview-scope") else { return .unit }
        guard let parsed = PreviewScope(rawValue: scope) else {
            throw UsageError("--preview-scope must be 'unit' or 'event', not '\(scope)'", command: command)
        }
        return parsed
    }

    /// The options of `run`, and the CI formats only `validate` speaks.
    private static func validate(_ words: [String]) throws(UsageError) -> Command {
        var rest = words
        let ciReports = try CIReportOptions.extract(from: &rest)
        return .validate(try analysisOptions(rest, command: .validate), ciReports: ciReports)
    }

    private static func configuration(_ arguments: ArgumentList, command: CommandName) throws(UsageError) -> Configuration? {
        guard let path = arguments.value("config") else { return nil }
        do throws(ConfigurationError) {
            return try Configuration.load(path: path)
        } catch {
            throw UsageError(error.description, command: command)
        }
    }

    private static func analysisOptions(_ words: [String], command: CommandName) throws(UsageError) -> RunOptions {
        let arguments = try ArgumentList(
            words, command: command,
            valued: [
                "out", "config", "preview-scope", "jobs", "max-reject-rate", "lock-wait", "state", "batch-mb", "inflate",
                "max-campaigns", "sequential-tuning", "conversion-window", "bind-window",
            ],
            flags: ["rejects-raw"])
        var options = RunOptions()
        options.inputs = arguments.positionals
        guard options.inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("'-' (standard input) may be given only once", command: command)
        }
        options.outputDirectory = arguments.value("out")
            ?? (command == .run ? RunOptions.defaultOutputDirectory : nil)
        options.rejectsRaw = arguments.has("rejects-raw")
        options.previewScope = try previewScope(arguments, command: command)
        options.jobs = try arguments.number("jobs", default: defaultJobs(), in: 1...1024)
        options.maxRejectRate = try arguments.number("max-reject-rate", default: RunOptions.defaultMaxRejectRate, in: 0...1)
        options.maxCampaigns = try maxCampaigns(arguments)
        options.sequentialTuning = try sequentialTuning(arguments)
        options.windows = try windows(arguments)
        options.configuration = try configuration(arguments, command: command)
        options.lockWaitSeconds = try arguments.number("lock-wait", default: 0, in: 0...1e9)
        options.configurationPath = arguments.value("config")
        options.statePath = arguments.value("state")
        options.stateBatchBytes = Int(try arguments.number("batch-mb", default: 256.0, in: 0.001...1_048_576) * 1_048_576)
        if let statePath = options.statePath {
            guard command == .run else { throw UsageError("\(command) does not take --state: use 'run --state FILE'", command: command) }
            // With a state, no INPUT means: ingest nothing, report the state.
            if let report = StatePath.reportNamed(by: statePath, outputDirectory: options.outputDirectory ?? RunOptions.defaultOutputDirectory) {
                throw UsageError(
                    "--state '\(statePath)' would be replaced by this run's report '\(report)'; give the state a name or directory of its own",
                    command: command)
            }
        } else if arguments.value("batch-mb") != nil {
            throw UsageError("--batch-mb goes with --state FILE", command: command)
        } else if options.inputs.isEmpty {
            options.inputs = RunOptions.defaultInputs
        }
        options.inflate = try inflateBackend(arguments, command: command)
        return options
    }

    private static func state(_ words: [String]) throws(UsageError) -> Command {
        let arguments = try ArgumentList(words, command: .state, valued: ["lock-wait"], flags: ["json", "check", "compact"])
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("state needs exactly one FILE: the --state file to describe", command: .state)
        }
        let actions: [(flag: String, action: StateAction)] = [("json", .describeAsJSON), ("check", .check), ("compact", .compact)]
        let chosen = actions.filter { arguments.has($0.flag) }
        if arguments.has("check") && arguments.has("json") {
            throw UsageError("--check prints one line and takes no --json: give one of them", command: .state)
        }
        guard chosen.count <= 1 else {
            throw UsageError("give one of --json, --check and --compact", command: .state)
        }
        return .state(
            path: path, action: chosen.first?.action ?? .describe,
            lockWaitSeconds: try arguments.number("lock-wait", default: 0, in: 0...1e9))
    }

    private static func generate(_ words: [String]) throws(UsageError) -> Command {
        let arguments = try ArgumentList(
            words, command: .generate, valued: ["events", "out", "seed", "files", "bad-share", "days", "shape"], flags: [])
        guard arguments.positionals.isEmpty else {
            throw UsageError("generate takes no inputs, only options", command: .generate)
        }
        guard let out = arguments.value("out") else {
            throw UsageError("generate needs --out DIR", command: .generate)
        }
        if arguments.value("days") != nil && arguments.value("files") != nil {
            throw UsageError("--days writes one file per day: give --days or --files, not both", command: .generate)
        }
        let options = GeneratorOptions(
            events: try arguments.number("events", default: 100_000, in: 0...10_000_000_000),
            files: try arguments.number("files", default: 4, in: 1...10_000),
            seed: try arguments.number("seed", default: 1, in: 0...UInt64.max),
            badLineShare: try arguments.number("bad-share", default: 0.002, in: 0...1),
            days: arguments.value("days") == nil ? nil : try arguments.number("days", default: 1, in: 1...3_650),
            shape: try shape(arguments))
        return .generate(options, outputDirectory: out)
    }

    private static func inflateBackend(_ arguments: ArgumentList, command: CommandName) throws(UsageError) -> InflateBackend {
        guard let value = arguments.value("inflate") else { return .zlib }
        guard let choice = InflateChoice(rawValue: value) else {
            throw UsageError("--inflate must be 'zlib', 'isal' or 'auto', not '\(value)'", command: command)
        }
        do throws(UsageError) {
            return try choice.resolve(isalLoadError: choice == .zlib ? nil : ISALLibrary.loadError)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    private static func shape(_ arguments: ArgumentList) throws(UsageError) -> LogShape {
        guard let shape = arguments.value("shape") else { return .friendly }
        guard let parsed = LogShape(rawValue: shape) else {
            let shapes = LogShape.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw UsageError("--shape must be one of \(shapes), not '\(shape)'", command: .generate)
        }
        return parsed
    }

    /// The number of cores this process may use.
    static func defaultJobs() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

extension Command {
    /// The name this command's own failures are told under on stderr: a stage filter adds its
    /// name, so the log of a distributed run shows which stage failed.
    var speaker: String {
        switch self {
        case .partial: "grove-report \(CommandName.partial)"
        case .merge: "grove-report \(CommandName.merge)"
        case .render: "grove-report \(CommandName.render)"
        case .run, .validate, .generate, .state, .help: "grove-report"
        }
    }
}

/// What `grove-report state FILE` does.
enum StateAction: Equatable {
    case describe, describeAsJSON
    /// SQLite's integrity check.
    case check
    /// Every record stored in several rows rewritten as one, and the file vacuumed.
    case compact
}
