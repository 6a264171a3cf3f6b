#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The directory reports go to, held by one run at a time (docs/OUTPUTS.md, Writing atomically).
///
/// `write` puts each file under a temporary name and remembers its SHA-256; `publish` renames
/// them into place in the order written and then `summary.json` last, listing the others' hashes
/// in `outputs`. Nothing is renamed until every file is written, so a full disk leaves the
/// previous set as it was, and a kill between renames leaves a mix that the hashes reveal.
package struct OutputDirectory: Sendable {
    let path: String
    private let lock: DirectoryLock
    private let staged = StagedFiles()

    /// The name `publish` writes last.
    static let summaryName = "summary.json"

    /// Creates the directory (and its parents) when missing, takes its lock (waiting up to
    /// `lockWaitSeconds`), and removes the temporaries that dead runs left in it.
    init(path: String, lockWaitSeconds: Double = 0) throws(OutputError) {
        self.path = path
        try Self.makeDirectories(path)
        lock = try DirectoryLock(path: path, waitSeconds: lockWaitSeconds)
        StaleTemporaries.remove(in: path)
    }

    /// A private scratch directory inside this one, for temporary files of this run; remove it
    /// with `TemporaryFiles.remove`.
    func scratchDirectory() throws(OutputError) -> String {
        let scratch = "\(path)/.grove-report-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        TemporaryFiles.register(scratch, directory: true)
        guard mkdir(scratch, 0o700) == 0 else {
            let error = OutputError.cannotWrite(path: scratch)
            TemporaryFiles.release(scratch)
            throw error
        }
        return scratch
    }

    /// Writes `bytes` to the temporary of `name`, to be renamed into place by `publish`.
    func write(_ bytes: [UInt8], to name: String) throws(OutputError) {
        let temporary = temporaryPath(for: name)
        try Self.writeTemporary(bytes, at: temporary, for: "\(path)/\(name)")
        stage(temporary, as: name, sha256: SHA256Digest.hex(bytes))
    }

    /// Writes one file outside any output directory the way every report is written: under a
    /// temporary name beside it, renamed into place once whole (`validate --junit FILE`). No lock
    /// is taken: the file is one, and the rename alone decides which of two writers wins.
    package static func writeAlone(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = "\(directory).\(name).\(getpid()).tmp"
        try writeTemporary(bytes, at: temporary, for: path)
        guard rename(temporary, path) == 0 else {
            let error = OutputError.cannotWrite(path: path)
            TemporaryFiles.remove(temporary)
            throw error
        }
        TemporaryFiles.release(temporary)
    }

    /// Writes `bytes` to `temporary` (registered, so a signal or a failure removes it); a failure
    /// is told by `finalPath`, the name the user knows.
    private static func writeTemporary(_ bytes: [UInt8], at temporary: String, for finalPath: String) throws(OutputError) {
        TemporaryFiles.register(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(finalPath, temporary: temporary) }
        guard WholeWrite.write(bytes, to: descriptor) else {
            let error = failure(finalPath, temporary: temporary)
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure(finalPath, temporary: temporary) }
    }

    /// The temporary path a file named `name` is written under.
    func temporaryPath(for name: String) -> String {
        "\(path)/.\(name).\(getpid()).tmp"
    }

    /// Records a finished temporary (written by the caller, registered with `TemporaryFiles`)
    /// for `publish`.
    func stage(_ temporary: String, as name: String, sha256: String) {
        staged.files.withLock { $0.append(StagedFile(name: name, temporary: temporary, sha256: sha256)) }
    }

    /// Renames every written file into place, then writes `summary.json`, made by `summary`
    /// from the other files' names and SHA-256 (sorted by name), and renames it last.
    func publish(summary: ([(name: String, sha256: String)]) -> [UInt8]) throws(OutputError) {
        let files = staged.files.withLock { $0 }
        let outputs = files.map { (name: $0.name, sha256: $0.sha256) }.sorted { ByteString($0.name) < ByteString($1.name) }
        try write(summary(outputs), to: Self.summaryName)
        let all = staged.files.withLock { files in
            defer { files = [] }
            return files
        }
        for (index, file) in all.enumerated() {
            guard rename(file.temporary, "\(path)/\(file.name)") == 0 else {
                let error = OutputError.cannotWrite(path: "\(path)/\(file.name)")
                for rest in all[index...] { TemporaryFiles.remove(rest.temporary) }
                throw error
            }
            TemporaryFiles.release(file.temporary)
            TestHooks.renamedIntoPlace()
        }
    }

    /// Removes the temporaries of files written but not published (after a failure).
    func discard() {
        let files = staged.files.withLock { files in
            defer { files = [] }
            return files
        }
        for file in files { TemporaryFiles.remove(file.temporary) }
    }

    /// Removes the failed temporary and describes the failure by the file's final path.
    private static func failure(_ finalPath: String, temporary: String) -> OutputError {
        let error = OutputError.cannotWrite(path: finalPath)
        TemporaryFiles.remove(temporary)
        return error
    }

    /// `mkdir -p`, with the system's reason when a part cannot be made ("Not a directory"…).
    private static func makeDirectories(_ path: String) throws(OutputError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw .cannotCreate(path: path, reason: errnoDescription())
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .cannotCreate(path: path, reason: errnoDescription()) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .cannotCreate(path: path, reason: "a file with that name exists") }
    }
}

/// The finished temporaries of a run waiting to be renamed into place, in the order written.
private final class StagedFiles: Sendable {
    let files = Mutex<[StagedFile]>([])
}

private struct StagedFile {
    var name: String
    var temporary: String
    var sha256: String
}
