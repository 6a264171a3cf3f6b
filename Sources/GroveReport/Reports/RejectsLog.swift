#if canImport(Glibc)
import Glibc
#endif

/// One rejected line as `rejects.ndjson` lists it.
struct RejectRecord: Sendable, Equatable {
    var file: String
    var line: Int
    var offset: Int
    var reason: RejectReason
    /// The redacted raw line, only with `--rejects-raw`; nil for a line too long to hold.
    var raw: [UInt8]?
    /// The input's position among all inputs, for report order when one file is named twice.
    var inputIndex = 0

    /// Report order: file name byte-wise, then input position, then line.
    static func precedes(_ lhs: RejectRecord, _ rhs: RejectRecord) -> Bool {
        let (left, right) = (fileOrder(lhs.file, lhs.inputIndex), fileOrder(rhs.file, rhs.inputIndex))
        return (left.0, left.1, lhs.line) < (right.0, right.1, rhs.line)
    }

    /// The order of the inputs whose rejects are listed: file name byte-wise, then input
    /// position. `run` concatenates its per-input spools (each in line order) in this order.
    static func fileOrder(_ file: String, _ inputIndex: Int) -> (ByteString, Int) {
        (ByteString(file), inputIndex)
    }

    /// The record as one NDJSON line, newline included.
    func ndjsonLine(includeRaw: Bool) -> [UInt8] {
        var members = [
            JSONOutput.Member("file", .text(file)),
            JSONOutput.Member("line", .integer(line)),
            JSONOutput.Member("offset", .integer(offset)),
            JSONOutput.Member("reason", .string(reason.text)),
        ]
        if includeRaw { members.append(JSONOutput.Member("raw", raw.map { .string(ByteString($0)) } ?? .null)) }
        return JSONOutput.object(members).compact() + [0x0A]
    }
}

/// Where a file's rejects go as they are found, so memory does not grow with bad lines.
protocol RejectSink: AnyObject {
    func append(_ record: RejectRecord, includeRaw: Bool) throws(OutputError)
    /// Ends the sink's share of the file (a segment of a shared file ends with its spool closed).
    func close() throws(OutputError)
}

/// Rejects of one input file, spooled to a scratch file so memory does not grow with bad lines.
///
/// Each input gets its own spool; `RejectsLog.combine` concatenates them in report order.
final class RejectSpool: RejectSink {
    let path: String
    private var handle: UnsafeMutablePointer<FILE>?
    private(set) var count = 0

    init(path: String) {
        self.path = path
    }

    deinit {
        if let handle { fclose(handle) }
    }

    func append(_ record: RejectRecord, includeRaw: Bool) throws(OutputError) {
        try append(record.ndjsonLine(includeRaw: includeRaw))
    }

    func append(_ line: [UInt8]) throws(OutputError) {
        if handle == nil {
            handle = fopen(path, "wb")
            guard handle != nil else { throw OutputError.cannotWrite(path: path) }
        }
        guard fwrite(line, 1, line.count, handle) == line.count else { throw OutputError.cannotWrite(path: path) }
        count += 1
    }

    /// Flushes and closes the spool; nothing to do when nothing was written (no file was made).
    func close() throws(OutputError) {
        guard let handle else { return }
        self.handle = nil
        guard fclose(handle) == 0 else { throw OutputError.cannotWrite(path: path) }
    }
}

/// Where a run's `rejects.ndjson` comes from: the spools its workers wrote (`run`, `run --state`),
/// or the lines of the reject records a stage filter read (`render`).
enum RejectsContent {
    case spools([String])
    case lines([UInt8])

    /// Writes `rejects.ndjson` into `output`, to be published with the other reports.
    func write(into output: OutputDirectory) throws(OutputError) {
        switch self {
        case .spools(let paths): try RejectsLog.combine(paths, into: output)
        case .lines(let bytes): try output.write(bytes, to: RejectsLog.fileName)
        }
    }
}

/// Builds `rejects.ndjson` from per-input spools.
enum RejectsLog {
    static let fileName = "rejects.ndjson"

    /// Concatenates the spool files in order into the temporary of `rejects.ndjson`, staged in
    /// `output` with its SHA-256, and removes the spools. Stops at the first failed read or write.
    static func combine(_ spoolPaths: [String], into output: OutputDirectory) throws(OutputError) {
        let temporary = output.temporaryPath(for: fileName)
        TemporaryFiles.register(temporary)
        guard let target = fopen(temporary, "wb") else {
            let error = OutputError.cannotWrite(path: "\(output.path)/\(fileName)")
            TemporaryFiles.remove(temporary)
            throw error
        }
        var digest = SHA256Digest()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var failure: OutputError?
        spools: for spool in spoolPaths {
            guard let source = fopen(spool, "rb") else {
                failure = .cannotWrite(path: spool)
                break
            }
            defer {
                fclose(source)
                unlink(spool)
            }
            while true {
                let count = fread(&buffer, 1, buffer.count, source)
                if count == 0 {
                    if ferror(source) != 0 { failure = .cannotWrite(path: spool) }
                    break
                }
                buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                if fwrite(buffer, 1, count, target) != count {
                    failure = .cannotWrite(path: "\(output.path)/\(fileName)")
                    break spools
                }
            }
            if failure != nil { break }
        }
        if fclose(target) != 0, failure == nil { failure = .cannotWrite(path: "\(output.path)/\(fileName)") }
        if let failure {
            TemporaryFiles.remove(temporary)
            throw failure
        }
        output.stage(temporary, as: fileName, sha256: digest.hexDigest())
    }
}
