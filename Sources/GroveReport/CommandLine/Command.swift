#if canImport(Glibc)
import Glibc
#endif

/// A parsed command line.
public enum Command: Sendable {
    case run(RunOptions)
    case validate(RunOptions)
    case generate(GeneratorOptions, outputDirectory: String)
    /// Print this help text and exit 0.
    case help(String)

    /// Parses the words after the program name.
    public static func parse(_ words: [String]) throws(UsageError) -> Command {
        guard let first = words.first else { return .help(HelpText.tool) }
        let rest = Array(words.dropFirst())
        switch first {
        case "--help", "-h", "help":
            guard let topic = rest.first else { return .help(HelpText.tool) }
            guard let text = HelpText.forCommand(topic) else { throw UsageError("no help for '\(topic)': the commands are run, validate, generate") }
            return .help(text)
        case "run", "validate", "generate":
            if rest.contains("--help") || rest.contains("-h") { return .help(HelpText.forCommand(first)!) }
            switch first {
            case "run": return .run(try analysisOptions(rest, command: "run"))
            case "validate": return .validate(try analysisOptions(rest, command: "validate"))
            default: return try generate(rest)
            }
        default:
            throw UsageError("unknown command '\(first)': use run, validate or generate")
        }
    }

    private static func analysisOptions(_ words: [String], command: String) throws(UsageError) -> RunOptions {
        let arguments = try ArgumentList(
            words, command: command,
            valued: ["out", "config", "preview-scope", "jobs", "max-reject-rate"], flags: ["rejects-raw"])
        var options = RunOptions()
        options.inputs = arguments.positionals
        options.outputDirectory = arguments.value("out")
            ?? (command == "run" ? RunOptions.defaultOutputDirectory : nil)
        options.rejectsRaw = arguments.has("rejects-raw")
        if let scope = arguments.value("preview-scope") {
            guard let parsed = PreviewScope(rawValue: scope) else {
                throw UsageError("--preview-scope must be 'unit' or 'event', not '\(scope)'", command: command)
            }
            options.previewScope = parsed
        }
        options.jobs = try arguments.value("jobs").map { value throws(UsageError) in
            guard let jobs = Int(value), jobs >= 1, jobs <= 1024 else {
                throw UsageError("--jobs must be a whole number from 1 to 1024, not '\(value)'", command: command)
            }
            return jobs
        } ?? defaultJobs()
        if let rate = arguments.value("max-reject-rate") {
            guard let parsed = Double(rate), parsed >= 0, parsed <= 1 else {
                throw UsageError("--max-reject-rate must be a number from 0 to 1, not '\(rate)'", command: command)
            }
            options.maxRejectRate = parsed
        }
        if let path = arguments.value("config") {
            do throws(ConfigurationError) {
                options.configuration = try Configuration.load(path: path)
            } catch {
                throw UsageError(error.description, command: command)
            }
        }
        return options
    }

    private static func generate(_ words: [String]) throws(UsageError) -> Command {
        let arguments = try ArgumentList(
            words, command: "generate", valued: ["events", "out", "seed", "files", "bad-share"], flags: [])
        guard arguments.positionals.isEmpty else {
            throw UsageError("generate takes no inputs, only options", command: "generate")
        }
        guard let out = arguments.value("out") else {
            throw UsageError("generate needs --out DIR", command: "generate")
        }
        func number<Value: LosslessStringConvertible & Comparable>(
            _ name: String, default defaultValue: Value, in range: ClosedRange<Value>
        ) throws(UsageError) -> Value {
            guard let text = arguments.value(name) else { return defaultValue }
            guard let value = Value(text), range.contains(value) else {
                throw UsageError("--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: "generate")
            }
            return value
        }
        let options = GeneratorOptions(
            events: try number("events", default: 100_000, in: 0...10_000_000_000),
            files: try number("files", default: 4, in: 1...10_000),
            seed: try number("seed", default: 1, in: 0...UInt64.max),
            badLineShare: try number("bad-share", default: 0.002, in: 0...1))
        return .generate(options, outputDirectory: out)
    }

    /// The number of cores this process may use.
    static func defaultJobs() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
