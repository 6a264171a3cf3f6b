import Foundation

/// The directory reports go to. Every file is written under a temporary name and renamed into
/// place, so a crashed or killed run never leaves a half-written report.
public struct OutputDirectory: Sendable {
    public let path: String

    /// Creates the directory (and its parents) when missing.
    public init(path: String) throws(OutputError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(path: path, reason: error.localizedDescription)
        }
    }

    /// A private scratch directory inside this one, for temporary files of this run.
    public func scratchDirectory() throws(OutputError) -> String {
        let scratch = "\(path)/.grove-report-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        } catch {
            throw .cannotCreate(path: scratch, reason: error.localizedDescription)
        }
        return scratch
    }

    /// Writes `bytes` to `name` atomically.
    public func write(_ bytes: [UInt8], to name: String) throws(OutputError) {
        let temporary = temporaryPath(for: name)
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .cannotWrite(path: temporary)
        }
        try moveIntoPlace(temporary, as: name)
    }

    /// The temporary path a file named `name` is written under before `moveIntoPlace`.
    public func temporaryPath(for name: String) -> String {
        "\(path)/.\(name).\(getpid()).tmp"
    }

    /// Renames a finished temporary file to its final name.
    public func moveIntoPlace(_ temporary: String, as name: String) throws(OutputError) {
        guard rename(temporary, "\(path)/\(name)") == 0 else {
            throw .cannotWrite(path: "\(path)/\(name)")
        }
    }
}

/// Why reports could not be written.
public enum OutputError: Error, Equatable, CustomStringConvertible {
    case cannotCreate(path: String, reason: String)
    case cannotWrite(path: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            "cannot create output directory '\(path)': \(reason); choose another --out"
        case .cannotWrite(let path):
            "cannot write '\(path)': check free space and permissions of the --out directory"
        }
    }
}
