/// Why a run could not use its `--state` file.
public enum StateError: Error, Equatable, CustomStringConvertible {
    /// Another run holds the state's write lock (after `--lock-wait`).
    case busy(path: String)
    /// The file was written by a newer grove-report.
    case newerSchema(path: String, version: Int)
    /// The file is not a grove-report state: empty, not SQLite, or SQLite without the schema.
    case notAState(path: String, reason: String)
    /// SQLite finds the state damaged (malformed, truncated, not a database any more); it was
    /// left as it was.
    case damaged(path: String, reason: String)
    /// An input's name was ingested before with other content.
    case changedInput(file: String, run: Int)
    /// SQLite could not read the file (permissions, I/O error).
    case cannotRead(path: String, reason: String)
    /// SQLite could not read or write the file (full disk, read-only, I/O error).
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .busy(let path):
            "state '\(path)' is in use by another run; try again later or wait longer with --lock-wait SECONDS"
        case .newerSchema(let path, let version):
            "state '\(path)' has schema version \(version), newer than this grove-report's \(StateSchema.version); use a newer grove-report"
        case .notAState(let path, let reason):
            "'\(path)' is not a grove-report state (\(reason)) and was left as it was; name a new file or an existing state with --state"
        case .damaged(let path, let reason):
            "state '\(path)' is damaged (\(reason)) and was left as it was; restore a copy, or rebuild it from the logs: "
                + "move it away and run 'grove-report run --state NEW.db LOGS...' (docs/STATE.md, Recipes)"
        case .changedInput(let file, let run):
            "input '\(file)' was ingested by run \(run) with other content; give changed logs a new name, or rebuild the state"
        case .cannotRead(let path, let reason):
            "cannot read state '\(path)': \(reason); check its permissions"
        case .cannotWrite(let path, let reason):
            "cannot write state '\(path)': \(reason); check free space and permissions"
        }
    }
}

/// What a run that did its work must still tell about its state, on stderr, without failing.
public enum StateWarning: Equatable, CustomStringConvertible {
    /// SQLite could not copy its write-ahead log back into the state file at close (a full
    /// disk): the state is sound, but part of it lives only in the side files.
    case logNotFolded(path: String, reason: String)
    /// The run recomputed the stored results from the stored records (SPEC section 10.1).
    case recomputed(path: String, reason: String)

    public var description: String {
        switch self {
        case .logNotFolded(let path, let reason):
            "warning: could not fold the log of state '\(path)' back into it (\(reason)); the state is whole "
                + "only with its side files '\(path)-wal' and '\(path)-shm': keep them beside it (copy or move all three "
                + "together) until a later run, with free space, folds them in"
        case .recomputed(let path, let reason):
            "note: state '\(path)': \(reason); its per-campaign results were recomputed from its records"
        }
    }
}
