import GroveGenerator
import GroveReport

/// A failure that stops a command, and the exit status it claims. The conformances below are the
/// one table from failures to codes, so the same failure exits the same way from every command.
protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

extension OutputError: CommandFailure {
    /// 75 when the directory is in use, 74 for every other output failure.
    var exitStatus: ExitStatus {
        switch self {
        case .busy: .busy
        case .cannotCreate, .cannotWrite: .outputFailure
        }
    }
}

extension StateError: CommandFailure {
    /// 75 when another run holds the state, 74 when it cannot be read or written, 2 for a file
    /// that is not a state of this version, a damaged state (left as it was) or an input
    /// ingested before with other content.
    var exitStatus: ExitStatus {
        switch self {
        case .busy: .busy
        case .newerSchema, .notAState, .damaged, .changedInput: .usage
        case .cannotRead, .cannotWrite: .outputFailure
        }
    }
}

extension StatefulRun.Failure: CommandFailure {
    var exitStatus: ExitStatus {
        switch self {
        case .state(let failure): failure.exitStatus
        case .output(let failure): failure.exitStatus
        }
    }

    public var description: String {
        switch self {
        case .state(let failure): failure.description
        case .output(let failure): failure.description
        }
    }
}

extension RecordError: CommandFailure {
    /// Stage records that cannot be read are damaged input, like a corrupt log: 1.
    var exitStatus: ExitStatus { .inputProblem }
}

extension StageFailure: CommandFailure {
    var exitStatus: ExitStatus {
        switch self {
        case .records(let failure): failure.exitStatus
        case .output(let failure): failure.exitStatus
        }
    }
}

extension GeneratorError: CommandFailure {
    /// 2 for a request out of range, 74 when the logs could not be written.
    var exitStatus: ExitStatus {
        switch self {
        case .invalidEventCount, .invalidFileCount, .invalidDayCount, .invalidBadLineShare: .usage
        case .cannotCreateDirectory, .cannotCreateFile, .writeFailed, .compressionFailed: .outputFailure
        }
    }
}
