/// Why `grove-report generate` could not write its synthetic logs, phrased so the person running
/// it knows what to change.
public enum GeneratorError: Error, CustomStringConvertible, Equatable {
    /// The requested number of lines is negative.
    case invalidEventCount(Int)
    /// The requested number of files is below 1.
    case invalidFileCount(Int)
    /// The requested number of days is below 1.
    case invalidDayCount(Int)
    /// The share of bad lines is not a number between 0 and 1.
    case invalidBadLineShare(Double)
    /// The output directory could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// An output file could not be opened for writing.
    case cannotCreateFile(path: String, reason: String)
    /// Writing or closing an output file failed (disk full, quota, I/O error…).
    case writeFailed(path: String, reason: String)
    /// zlib's deflate reported an error code.
    case compressionFailed(path: String, status: Int32)

    public var description: String {
        switch self {
        case .invalidEventCount(let count):
            return "the number of events must be 0 or more (got \(count)); pass a non-negative --events"
        case .invalidFileCount(let count):
            return "the number of output files must be at least 1 (got \(count))"
        case .invalidDayCount(let count):
            return "the number of days must be at least 1 (got \(count))"
        case .invalidBadLineShare(let share):
            return "the share of bad lines must be between 0 and 1 (got \(share))"
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create output directory '\(path)': \(reason); "
                + "choose another --out, or fix the path or its permissions"
        case .cannotCreateFile(let path, let reason):
            return "cannot create '\(path)': \(reason); check that the --out directory is writable"
        case .writeFailed(let path, let reason):
            return "writing '\(path)' failed: \(reason); the file is incomplete — "
                + "check free disk space and permissions, then run generate again"
        case .compressionFailed(let path, let status):
            return "zlib failed (status \(status)) while compressing '\(path)'; "
                + "this points to memory exhaustion or a bug — run generate again and report it if it persists"
        }
    }
}
