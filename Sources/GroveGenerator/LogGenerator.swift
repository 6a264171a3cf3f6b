import Foundation
import GroveReport

/// What `grove-report generate` should write.
public struct GeneratorOptions: Sendable {
    /// Total lines over all files, bad and ignored lines included.
    var events: Int
    /// Number of files the lines are spread over.
    var files: Int
    /// Same seed (and options), same bytes — on every machine.
    var seed: UInt64
    /// Share of lines that are deliberately defective: mostly lines the pipeline must reject,
    /// about a tenth lines it must ignore (blank, unknown type).
    var badLineShare: Double
    /// With a number of days, one file per simulated day (`files` is then unused) and journeys
    /// that cross midnight; nil keeps the classic few-days sweep over `files` files.
    var days: Int?
    /// Friendly (the default, `SampleData/`) or production-shaped lines.
    var shape: LogShape

    public init(
        events: Int, files: Int = 1, seed: UInt64 = 1, badLineShare: Double = 0.002, days: Int? = nil,
        shape: LogShape = .friendly
    ) {
        self.events = events
        self.files = files
        self.seed = seed
        self.badLineShare = badLineShare
        self.days = days
        self.shape = shape
    }
}

/// What `generate` wrote, so the caller can report it and tests can check the pipeline's
/// accounting against it.
public struct GeneratorSummary: Sendable, Equatable {
    /// Paths of the files written, in order.
    public var files: [String]
    /// Lines written, every kind included.
    public var lines: Int
    /// Lines the pipeline must reject (every reject reason but `line_too_long`).
    public var badLines: Int
    /// Lines the pipeline must ignore: blank lines and unknown event types.
    var ignoredLines: Int
}

/// Writes seeded, realistic synthetic FunnelsGrove and Grona logs as gzipped NDJSON, streaming:
/// memory stays bounded whatever the number of lines.
public enum LogGenerator {
    /// Lines are collected up to this size before they go to the compressor.
    static let chunkSize = 256 * 1024

    /// Writes `options.files` files `events-0001.ndjson.gz`, … into `directory` (created if
    /// missing), `options.events` lines in all, split as evenly as possible. Events flow from one
    /// file into the next, as consecutive exports would: a click in one file may be opened in the
    /// next. With `options.days`, one file per simulated day instead (`DailyLogGenerator`).
    public static func generate(_ options: GeneratorOptions, into directory: String) throws(GeneratorError) -> GeneratorSummary {
        guard options.events >= 0 else { throw GeneratorError.invalidEventCount(options.events) }
        guard options.files >= 1 else { throw GeneratorError.invalidFileCount(options.files) }
        guard (0...1).contains(options.badLineShare) else {
            throw GeneratorError.invalidBadLineShare(options.badLineShare)
        }
        if let days = options.days, days < 1 { throw GeneratorError.invalidDayCount(days) }
        try makeDirectory(directory)
        if let days = options.days {
            return try DailyLogGenerator.generate(options, days: days, into: directory)
        }

        var stream = EventStream(seed: options.seed, lines: options.events,
                                 defectShare: options.badLineShare, shape: options.shape, bufferCapacity: chunkSize + 64 * 1024)
        var summary = GeneratorSummary(files: [], lines: 0, badLines: 0, ignoredLines: 0)
        for fileIndex in 0..<options.files {
            let path = (directory as NSString).appendingPathComponent(
                fileName(index: fileIndex + 1, of: options.files))
            let writer = try GzipFileWriter(path: path)
            let lines = options.events / options.files + (fileIndex < options.events % options.files ? 1 : 0)
            for _ in 0..<lines {
                switch stream.appendLine() {
                case .event: break
                case .rejected: summary.badLines += 1
                case .ignored: summary.ignoredLines += 1
                }
                if stream.buffer.bytes.count >= chunkSize {
                    try writer.write(stream.buffer.bytes)
                    stream.clearBuffer()
                }
            }
            try writer.write(stream.buffer.bytes)
            stream.clearBuffer()
            try writer.finish()
            summary.files.append(path)
            summary.lines += lines
        }
        return summary
    }

    /// `events-0001.ndjson.gz`: zero-padded to at least four digits, and to as many as the last
    /// file needs, so byte-wise order is numeric order.
    static func fileName(index: Int, of count: Int) -> String {
        let digits = String(index)
        let width = max(4, String(count).count)
        return "events-" + String(repeating: "0", count: width - digits.count) + digits + ".ndjson.gz"
    }

    /// Creates `path` and any missing parents (`mkdir -p`), reporting the system's own reason
    /// ("Permission denied", "Not a directory"…) when it cannot.
    private static func makeDirectory(_ path: String) throws(GeneratorError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw GeneratorError.cannotCreateDirectory(path: path, reason: errnoDescription())
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GeneratorError.cannotCreateDirectory(path: path, reason: "a file with that name exists")
        }
    }
}
