#if canImport(Glibc)
import Glibc
#endif
@testable import GroveReport

/// libFuzzer target: an input file (gzip or plain, the first byte choosing the chunk size) through
/// the decompressing reader and the line splitter, as `run` reads it.
///
/// Checks besides "no crash": line numbers count up from 1, offsets grow and stay inside the
/// decompressed stream, no line exceeds the limit, and `bytes_read` and an error's offset stay
/// within the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineSplitter(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let chunkSize = Int(data[0] % 64) + 1
    let path = "/dev/shm/grove-report-fuzz-\(getpid())"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0)
    var written = 0
    while written < size - 1 {
        let count = write(descriptor, data + 1 + written, size - 1 - written)
        precondition(count > 0)
        written += count
    }
    close(descriptor)
    defer { unlink(path) }

    let maximumLength = 32
    var splitter = LineSplitter(maximumLineLength: maximumLength)
    var expectedNumber = 1
    var lastOffset = -1
    var decompressed = 0
    let check = { (line: SplitLine) in
        switch line {
        case .line(let bytes, let number, let offset):
            precondition(number == expectedNumber && offset > lastOffset && bytes.count <= maximumLength)
            precondition(offset + bytes.count <= decompressed)
            (expectedNumber, lastOffset) = (number + 1, offset)
        case .tooLong(let number, let offset):
            precondition(number == expectedNumber && offset > lastOffset && offset <= decompressed)
            (expectedNumber, lastOffset) = (number + 1, offset)
        }
    }
    let reader = DecompressingReader(chunkSize: chunkSize)
    let (counts, error) = reader.read(InputFile(displayName: "fuzz", path: path)) { chunk in
        decompressed += chunk.count
        splitter.feed(chunk, check)
    }
    splitter.finish(complete: error == nil, check)
    precondition(counts.read <= size - 1 && counts.decompressed == decompressed)
    if let error { precondition(error.offset == counts.read) }
    return 0
}
