import Foundation
@testable import GroveReport

/// One gzip input read through `DecompressingReader` from a regular file, or with validating zlib
/// alone (`inflateAll`): the reference every backend must match byte for byte, fault for fault.
enum GzipReads {
    typealias Read = (output: [UInt8], counts: ByteCounts, error: InputError?)

    static func read(_ bytes: [UInt8], backend: InflateBackend, chunkSize: Int) throws -> Read {
        try withFile(bytes) { path in
            var output: [UInt8] = []
            let (counts, error) = DecompressingReader(chunkSize: chunkSize, backend: backend)
                .read(InputFile(displayName: "in.gz", path: path)) { output.append(contentsOf: $0) }
            return (output, counts, error)
        }
    }

    /// What validating zlib reads, with `read`'s byte counts and fault (bytes without gzip's
    /// magic are passed through by `read` whatever the backend).
    static func validating(_ bytes: [UInt8], chunkSize: Int) throws -> Read {
        guard bytes.starts(with: [0x1F, 0x8B]) else { return try read(bytes, backend: .zlib, chunkSize: chunkSize) }
        return try withSource(bytes, chunkSize: chunkSize) { source in
            var output: [UInt8] = []
            var counts = ByteCounts()
            let fault = DecompressingReader(chunkSize: chunkSize)
                .inflateAll(&source, counts: &counts) { output.append(contentsOf: $0) }
            counts.read = fault?.1 ?? source.totalRead
            return (output, counts, fault.map { InputError(file: "in.gz", error: $0.0, offset: $0.1) })
        }
    }

    /// `bytes` in a temporary file, open as a `ByteSource` of `chunkSize` bytes.
    static func withSource<Result>(
        _ bytes: [UInt8], chunkSize: Int, _ body: (inout ByteSource) throws -> Result
    ) throws -> Result {
        try withFile(bytes) { path in
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            var source = ByteSource(descriptor: descriptor, capacity: chunkSize)
            defer { source.release() }
            return try body(&source)
        }
    }

    private static func withFile<Result>(_ bytes: [UInt8], _ body: (String) throws -> Result) throws -> Result {
        let directory = try temporaryDirectory("gzip-reads")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(directory + "/input", bytes)
        return try body(directory + "/input")
    }
}
