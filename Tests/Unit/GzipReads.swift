import Foundation
import Testing
@testable import GroveGenerator
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

    /// Reads `bytes` with `backend` and expects what validating zlib reads: the same bytes, byte
    /// counts and fault.
    static func expectSameAsValidating(
        _ bytes: [UInt8], backend: InflateBackend, chunkSize: Int = 4096, _ comment: Comment? = nil
    ) throws {
        let reference = try validating(bytes, chunkSize: chunkSize)
        let read = try read(bytes, backend: backend, chunkSize: chunkSize)
        #expect(read.output == reference.output, comment)
        #expect(read.counts == reference.counts, comment)
        #expect(read.error == reference.error, comment)
    }

    /// Whether `inflate` read `bytes` to the end by itself, inflating something, without handing
    /// the file to validating zlib.
    static func finishesAlone(
        _ bytes: [UInt8], chunkSize: Int, _ inflate: (inout ByteSource, inout ByteCounts) -> InflateOutcome
    ) throws -> Bool {
        try withSource(bytes, chunkSize: chunkSize) { source in
            var counts = ByteCounts()
            guard case .finished = inflate(&source, &counts) else { return false }
            return counts.decompressed > 0
        }
    }

    /// `members` back to back and the first followed by zero padding, in chunks of every size:
    /// `backend` reads each to the end by itself (`finishesAlone`) and as validating zlib does.
    static func expectWellFormedReadAlone(
        _ members: [[UInt8]], backend: InflateBackend, finishesAlone: ([UInt8], Int) throws -> Bool
    ) throws {
        for chunkSize in [5, 64, 4096, 1 << 20] {
            for bytes in [members.flatMap { $0 }, members[0] + [UInt8](repeating: 0, count: 300)] {
                #expect(try finishesAlone(bytes, chunkSize), "chunk \(chunkSize)")
                try expectSameAsValidating(bytes, backend: backend, chunkSize: chunkSize)
            }
        }
    }

    /// `compressed` followed by bytes that are not a member (junk, zeros then more, a cut magic),
    /// cut at about 60 places, and with each byte of its trailer (CRC-32 and length) damaged,
    /// alone, before another member or cut: `backend` reports each fault at a member's end as
    /// validating zlib does.
    static func expectBadEndingsAsValidating(of compressed: [UInt8], backend: InflateBackend) throws {
        let tails: [[UInt8]] = [Array("junk".utf8), [0, 0, 7], [0x1F], [0x1F, 0x8B, 8]]
        for tail in tails {
            try expectSameAsValidating(compressed + tail, backend: backend, "then \(tail)")
        }
        for cut in stride(from: 1, to: compressed.count, by: max(1, compressed.count / 60)) {
            try expectSameAsValidating(Array(compressed.prefix(cut)), backend: backend, chunkSize: 512, "cut at \(cut)")
        }
        for position in (compressed.count - 8)..<compressed.count {
            var damaged = compressed
            damaged[position] ^= 0x40
            for chunkSize in [3, 4096] {
                try expectSameAsValidating(damaged, backend: backend, chunkSize: chunkSize, "trailer byte \(position)")
                try expectSameAsValidating(damaged + compressed, backend: backend, chunkSize: chunkSize, "trailer byte \(position), then a member")
                try expectSameAsValidating(Array(damaged.dropLast(2)), backend: backend, chunkSize: chunkSize, "trailer byte \(position), cut")
            }
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

    /// `compressed` with a header zlib checks itself: reserved flag bits, a header CRC claimed
    /// that is not there, an unknown method. Every backend leaves these to zlib.
    static func flaggedHeaders(of compressed: [UInt8]) -> [[UInt8]] {
        var reserved = compressed
        reserved[3] |= 0x20
        var headerCRC = compressed
        headerCRC[3] |= 0x02
        var method = compressed
        method[2] = 7
        return [reserved, headerCRC, method]
    }

    /// 300 copies of `compressed` with a byte of its deflate data changed (every third, two), each
    /// with the chunk size to read it in and what to call it.
    static func corruptions(of compressed: [UInt8], seed: UInt64) -> [(bytes: [UInt8], chunkSize: Int, name: String)] {
        var rng = SeededRandom(seed: seed)
        return (0..<300).map { trial in
            var damaged = compressed
            let position = 10 + rng.below(compressed.count - 18)
            damaged[position] ^= UInt8(1 + rng.below(255))
            if trial % 3 == 0 { damaged[10 + rng.below(compressed.count - 18)] = UInt8(rng.below(256)) }
            return (damaged, trial % 2 == 0 ? 4096 : 1 << 20, "trial \(trial) at \(position)")
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
