import CZlib
#if canImport(Glibc)
import Glibc
#endif

/// Counters of one input's bytes, for `summary.json`.
struct ByteCounts: Sendable, Equatable {
    var read = 0
    var decompressed = 0

    init() {}
}

/// Reads one input and hands its decompressed bytes on in bounded chunks.
///
/// Compression is detected from the content (gzip magic `1f 8b`), not the name. Every member of a
/// multi-member gzip file is read; zero bytes after the last member are ignored; a corrupt or
/// truncated stream, a CRC or length mismatch, or other trailing bytes end the input with an
/// `InputError` naming the compressed offset where zlib detected the fault. Memory stays at two
/// fixed buffers (three with ISA-L) whatever the input size.
///
/// A file is inflated by ISA-L (the ISA-L backend) or by zlib with the gzip CRC computed here
/// (the zlib backend: zlib's own is several times slower) while it is well-formed; at any fault
/// it is read again with validating zlib, so faults, offsets and the bytes handed on are zlib's
/// in every case. Standard input and pipes cannot be read twice and are always inflated by
/// validating zlib.
struct DecompressingReader: Sendable {
    static let defaultChunkSize = 1 << 20

    let chunkSize: Int
    let backend: InflateBackend

    init(chunkSize: Int = DecompressingReader.defaultChunkSize, backend: InflateBackend = .zlib) {
        self.chunkSize = chunkSize
        self.backend = backend
    }

    /// Streams `file` into `consume`; returns the byte counts and the fault that ended it early, if any.
    func read(
        _ file: InputFile, into consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> (counts: ByteCounts, error: InputError?) {
        var counts = ByteCounts()
        let descriptor: Int32
        if let path = file.path {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else {
                return (counts, InputError(file: file.displayName, error: "cannot open: \(errnoDescription())", offset: 0))
            }
        } else {
            descriptor = STDIN_FILENO
        }
        defer { if file.path != nil { close(descriptor) } }

        var source = ByteSource(descriptor: descriptor, capacity: chunkSize)
        defer { source.release() }
        let fault: (String, Int)?
        if source.fill(minimum: 2), source.available.count >= 2, source.available[0] == 0x1F, source.available[1] == 0x8B {
            fault = inflateWithBackend(
                &source, counts: &counts, rereadable: file.path != nil && Self.isRegularFile(descriptor), consume: consume)
        } else {
            fault = passThrough(&source, counts: &counts, consume: consume)
        }
        // Up to the end, or to where the fault was detected: how much was read ahead in a buffer
        // differs between a file, a pipe and a stage, so it must not count (docs/OUTPUTS.md, `summary.json`).
        counts.read = fault?.1 ?? source.totalRead
        return (counts, fault.map { InputError(file: file.displayName, error: $0.0, offset: $0.1) })
    }

    /// Inflates a file that can be read again with the chosen backend (zlib with the CRC
    /// computed here, or ISA-L), which leaves every fault to validating zlib: a read that falls
    /// back starts again with it, skipping the bytes already handed on. Standard input and pipes
    /// go to validating zlib directly.
    private func inflateWithBackend(
        _ source: inout ByteSource, counts: inout ByteCounts, rereadable: Bool,
        consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> (String, Int)? {
        guard rereadable else { return inflateAll(&source, counts: &counts, consume: consume) }
        let outcome = if backend == .isal, case .success(let library) = ISALLibrary.shared {
            inflateAllWithISAL(&source, library: library, counts: &counts, consume: consume)
        } else {
            inflateAllCheckedHere(&source, counts: &counts, consume: consume)
        }
        switch outcome {
        case .finished:
            return nil
        case .fallBack(let forwarded):
            guard source.rewind() else { return (source.readErrorMessage ?? "read error", 0) }
            counts = ByteCounts()
            var skip = forwarded
            return inflateAll(&source, counts: &counts) { chunk in
                guard skip < chunk.count else {
                    skip -= chunk.count
                    return
                }
                consume(UnsafeBufferPointer(rebasing: chunk[skip...]))
                skip = 0
            }
        }
    }

    /// Whether `descriptor` is a regular file, which can be read again from its start (a named
    /// pipe or a terminal cannot).
    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    private func passThrough(
        _ source: inout ByteSource, counts: inout ByteCounts, consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> (String, Int)? {
        while true {
            guard source.fill(minimum: 1) else { return (source.readErrorMessage ?? "read error", source.totalRead) }
            let chunk = source.available
            if chunk.isEmpty { return nil }
            counts.decompressed += chunk.count
            consume(chunk)
            source.advance(chunk.count)
        }
    }

    /// Inflates member after member with validating zlib until the input ends; returns the
    /// fault, if any. Every fault grove-report reports is found here.
    func inflateAll(
        _ source: inout ByteSource, counts: inout ByteCounts, consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> (String, Int)? {
        var stream = z_stream()
        guard grove_inflateInit2(&stream, 15 + 16) == Z_OK else { return ("zlib could not start", 0) }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { output.deallocate() }

        while true {
            // One member: inflate until its end.
            var memberEnded = false
            while !memberEnded {
                if source.available.isEmpty {
                    guard source.fill(minimum: 1) else { return (source.readErrorMessage ?? "read error", source.consumed) }
                    if source.available.isEmpty { return ("truncated gzip stream", source.consumed) }
                }
                let input = source.available
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output
                stream.avail_out = UInt32(chunkSize)
                let status = inflate(&stream, Z_NO_FLUSH)
                let used = input.count - Int(stream.avail_in)
                let produced = chunkSize - Int(stream.avail_out)
                source.advance(used)
                if produced > 0 {
                    counts.decompressed += produced
                    consume(UnsafeBufferPointer(start: output, count: produced))
                }
                switch status {
                case Z_STREAM_END:
                    memberEnded = true
                case Z_OK, Z_BUF_ERROR:
                    continue
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return ("corrupt gzip stream: \(message)", source.consumed)
                }
            }
            // Between members: another member, zero padding, or trailing garbage.
            guard source.fill(minimum: 2) else { return (source.readErrorMessage ?? "read error", source.consumed) }
            let next = source.available
            if next.isEmpty { return nil }
            if next[0] == 0x1F {
                guard next.count >= 2 else { return ("truncated gzip stream", source.consumed) }
                guard next[1] == 0x8B else { return ("trailing bytes after the last gzip member", source.consumed) }
                inflateReset(&stream)
                continue
            }
            return skipZeroPadding(&source)
        }
    }

    /// Accepts only zero bytes up to the end of the input.
    func skipZeroPadding(_ source: inout ByteSource) -> (String, Int)? {
        while true {
            if source.available.isEmpty {
                guard source.fill(minimum: 1) else { return (source.readErrorMessage ?? "read error", source.consumed) }
                if source.available.isEmpty { return nil }
            }
            if let nonZero = source.available.firstIndex(where: { $0 != 0 }) {
                source.advance(nonZero)
                return ("trailing bytes after the last gzip member", source.consumed)
            }
            source.advance(source.available.count)
        }
    }
}

/// A fixed buffer over a file descriptor that tracks how many bytes were consumed.
struct ByteSource {
    let descriptor: Int32
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    /// Bytes read from the descriptor so far.
    private(set) var totalRead = 0
    private(set) var readErrorMessage: String?

    init(descriptor: Int32, capacity: Int) {
        self.descriptor = descriptor
        self.buffer = UnsafeMutableBufferPointer.allocate(capacity: max(capacity, 2))
    }

    /// Offset of the next unconsumed byte from the start of the input.
    var consumed: Int { totalRead - (end - start) }

    var available: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[start..<end])
    }

    mutating func advance(_ count: Int) {
        start += count
    }

    /// Reads until at least `minimum` bytes are available or the input ends; false on a read error.
    mutating func fill(minimum: Int) -> Bool {
        if start > 0 {
            let pending = end - start
            if pending > 0 {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                    from: buffer.baseAddress! + start, byteCount: pending)
            }
            start = 0
            end = pending
        }
        while end - start < minimum {
            let count = Glibc.read(descriptor, buffer.baseAddress! + end, buffer.count - end)
            if count == 0 { return true }
            if count < 0 {
                if errno == EINTR { continue }
                readErrorMessage = "read error: \(errnoDescription())"
                return false
            }
            end += count
            totalRead += count
        }
        return true
    }

    func release() {
        buffer.deallocate()
    }

    /// Starts again from the first byte of a regular file; false (with a message) when it cannot.
    mutating func rewind() -> Bool {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            readErrorMessage = "cannot read again: \(errnoDescription())"
            return false
        }
        start = 0
        end = 0
        totalRead = 0
        readErrorMessage = nil
        return true
    }
}
