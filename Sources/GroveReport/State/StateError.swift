/// Why a run could not use its `--state` file.
public enum StateError: Error, Equatable, CustomStringConvertible {
    /// Another run holds the state's write lock (after `--lock-wait`).
    case busy(path: String)
    /// The file was written by a newer grove-report.
    case newerSchema(path: String, version: Int)
    /// The file is not a grove-report state.
    case notAState(path: String, reason: String)
    /// An input's name was ingested before with other content.
    case changedInput(file: String, run: Int)
    /// SQLite could not read or write the file (full disk, read-only, I/O error).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .busy(let path):
            "state '\(path)' is in use by another run; try again later or wait longer with --lock-wait SECONDS"
        case .newerSchema(let path, let version):
            "state '\(path)' has schema version \(version), newer than this grove-report's \(StateSchema.version); use a newer grove-report"
        case .notAState(let path, let reason):
            "'\(path)' is not a grove-report state (\(reason)); name a new file or an existing state with --state"
        case .changedInput(let file, let run):
            "input '\(file)' was ingested by run \(run) with other content; give changed logs a new name, or rebuild the state"
        case .cannotWrite(let path, let reason):
            "cannot write state '\(path)': \(reason); check free space and permissions"
        }
    }
}
