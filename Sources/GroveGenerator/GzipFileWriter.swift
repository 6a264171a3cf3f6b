import CZlib
import Glibc
import GroveReport

/// Streams bytes through zlib's deflate into a gzip file. Memory is one fixed output buffer plus
/// zlib's own state, however much is written, so the generator can produce logs of any size.
final class GzipFileWriter {
    /// Size of the compressed-output buffer handed to each `write(2)`.
    static let outputBufferSize = 256 * 1024
    /// zlib's `windowBits` for a 32 KiB window (15) with a gzip header and trailer (+16).
    private static let gzipWindowBits: Int32 = 15 + 16

    let path: String
    private let descriptor: Int32
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutablePointer<UInt8>
    private var finished = false

    /// Creates (or truncates) the file at `path`. `level` is zlib's 0–9 (6 is its default balance
    /// of speed and size).
    init(path: String, level: Int32 = 6) throws(GeneratorError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw GeneratorError.cannotCreateFile(path: path, reason: errnoDescription())
        }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = grove_deflateInit2(stream, level, Self.gzipWindowBits)
        guard status == Z_OK else {
            stream.deallocate()
            close(descriptor)
            throw GeneratorError.compressionFailed(path: path, status: status)
        }
        self.path = path
        self.descriptor = descriptor
        self.stream = stream
        self.output = .allocate(capacity: Self.outputBufferSize)
    }

    deinit {
        if !finished {
            deflateEnd(stream)
            close(descriptor)
        }
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses `bytes`, writing compressed output whenever the buffer fills.
    func write(_ bytes: UnsafeRawBufferPointer) throws(GeneratorError) {
        precondition(!finished, "GzipFileWriter.write(_:) called after finish()")
        guard var next = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var remaining = bytes.count
        while remaining > 0 {
            // `avail_in` is 32 bits wide: feed larger inputs in slices.
            let slice = min(remaining, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: next)
            stream.pointee.avail_in = UInt32(slice)
            try deflateAvailableInput(flush: Z_NO_FLUSH)
            next += slice
            remaining -= slice
        }
    }

    /// Compresses `bytes`, writing compressed output whenever the buffer fills.
    func write(_ bytes: [UInt8]) throws(GeneratorError) {
        // `withUnsafeBytes` rethrows untyped: carry the typed error out as a `Result`.
        try bytes.withUnsafeBytes { buffer in Result { () throws(GeneratorError) in try write(buffer) } }.get()
    }

    /// Writes the gzip trailer and closes the file. Must be called once, after the last write;
    /// a writer dropped without it leaves an incomplete file, as a crashed run would.
    func finish() throws(GeneratorError) {
        precondition(!finished, "GzipFileWriter.finish() called twice")
        finished = true
        defer { deflateEnd(stream) }
        do throws(GeneratorError) {
            try deflateAvailableInput(flush: Z_FINISH)
        } catch {
            close(descriptor)
            throw error
        }
        if close(descriptor) != 0 {
            throw GeneratorError.writeFailed(path: path, reason: errnoDescription())
        }
    }

    /// Runs deflate until it has consumed the pending input (and, with `Z_FINISH`, ended the
    /// stream), writing each filled output buffer to the file.
    private func deflateAvailableInput(flush: Int32) throws(GeneratorError) {
        while true {
            stream.pointee.next_out = output
            stream.pointee.avail_out = UInt32(Self.outputBufferSize)
            let status = deflate(stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw GeneratorError.compressionFailed(path: path, status: status)
            }
            try writeAll(count: Self.outputBufferSize - Int(stream.pointee.avail_out))
            let done = flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_out > 0
            if done {
                return
            }
        }
    }

    /// Writes the first `count` bytes of the output buffer, retrying short and interrupted writes.
    private func writeAll(count: Int) throws(GeneratorError) {
        var offset = 0
        while offset < count {
            let written = Glibc.write(descriptor, output + offset, count - offset)
            if written < 0 {
                if errno == EINTR {
                    continue
                }
                throw GeneratorError.writeFailed(path: path, reason: errnoDescription())
            }
            offset += written
        }
    }
}
