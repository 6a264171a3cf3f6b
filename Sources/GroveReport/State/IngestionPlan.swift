import Foundation

/// Which inputs of a `run --state` are new, by the SHA-256 of their bytes as read (compressed
/// bytes for gzip): an input the state holds is skipped; a name it holds with other content is
/// refused before anything is read.
struct IngestionPlan {
    private(set) var inputs: [StateRunRecord.Input] = []
    /// The inputs to read, in the order given (standard input spooled to a scratch file).
    private(set) var newFiles: [InputFile] = []
    /// Discovery errors (missing paths…) as accounting: they fail the run.
    private(set) var discovery = Accounting()
    /// The position in `inputs` of each new file.
    private var positions: [Int] = []

    init(_ arguments: [String], store: StateStore, scratch: String) throws(StateError) {
        let (files, errors) = InputDiscovery.expand(arguments)
        discovery.files = errors.count
        discovery.inputErrors = errors
        var seen = Set<String>()
        for file in files {
            let readable = file.path == nil ? Self.spoolStandardInput(into: scratch) : file
            // An unreadable file is read anyway, so that it is reported as an input error.
            let fingerprint = readable.path.flatMap(Self.fingerprint) ?? (sha256: "", size: 0)
            var status = StateRunRecord.InputStatus.ingested
            if !fingerprint.sha256.isEmpty {
                let known = seen.contains(fingerprint.sha256) ? true : try store.ingested(sha256: fingerprint.sha256) != nil
                if known {
                    status = .skipped
                } else if file.path != nil, let earlier = try store.ingested(name: file.displayName) {
                    throw .changedInput(file: file.displayName, run: earlier.run)
                }
                seen.insert(fingerprint.sha256)
            }
            if status == .ingested {
                positions.append(inputs.count)
                newFiles.append(readable)
            }
            inputs.append(StateRunRecord.Input(
                file: file.displayName, sha256: fingerprint.sha256, status: status, lines: 0, size: fingerprint.size))
        }
    }

    /// The new files (as positions in `newFiles`) in batches of at most `maxBytes` (and at least
    /// one file), in report order: by name byte-wise, then position, so the batches' reject
    /// spools follow each other in the order `rejects.ndjson` lists them.
    func batches(maxBytes: Int) -> [[Int]] {
        let order = newFiles.indices.sorted {
            (ByteString(newFiles[$0].displayName), $0) < (ByteString(newFiles[$1].displayName), $1)
        }
        var batches: [[Int]] = []
        var bytes = 0
        for position in order {
            let size = inputs[positions[position]].size
            if batches.isEmpty || (bytes + size > maxBytes && !(batches.last?.isEmpty ?? true)) {
                batches.append([])
                bytes = 0
            }
            batches[batches.count - 1].append(position)
            bytes += size
        }
        return batches
    }

    /// Sets the lines read from each new file.
    mutating func count(linesPerFile: [Int]) {
        for (position, lines) in zip(positions, linesPerFile) { inputs[position].lines = lines }
    }

    /// SHA-256 and size of a file's bytes; nil when it cannot be read (to its end).
    private static func fingerprint(_ path: String) -> (sha256: String, size: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var digest = SHA256Digest()
        var size = 0
        // One buffer for the whole file: a new chunk a read had been new pages, faulted in each time.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                return nil
            }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            size += count
        }
        return (digest.hexDigest(), size)
    }

    /// Copies standard input to a scratch file, so it can be hashed before it is read.
    private static func spoolStandardInput(into scratch: String) -> InputFile {
        let path = scratch + "/standard-input"
        if FileManager.default.createFile(atPath: path, contents: nil), let target = FileHandle(forWritingAtPath: path) {
            while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                // A spool that cannot be written reads back short: its hash and lines say so.
                guard (try? target.write(contentsOf: chunk)) != nil else { break }
            }
            try? target.close()
        }
        return InputFile(displayName: "-", path: path)
    }
}
