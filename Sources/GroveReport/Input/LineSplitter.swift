#if canImport(Glibc)
import Glibc
#endif

/// One line of an input, as the splitter hands it on.
enum SplitLine {
    /// A line without its `\n`, trailing `\r` or leading BOM; its bytes stay valid until the
    /// splitter is next fed or finished, so that lines can be batched within a chunk.
    case line(UnsafeBufferPointer<UInt8>, number: Int, offset: Int)
    /// A line over the limit, detected without holding it.
    case tooLong(number: Int, offset: Int)
}

/// Splits a stream of decompressed chunks into lines (docs/INPUTS.md, Lines).
///
/// Lines end in `\n`; a trailing `\r` is removed; a UTF-8 BOM at the very start of the stream is
/// removed but still counts in byte offsets; a final line without `\n` is still a line. A line over
/// `maximumLineLength` bytes (not counting its `\n`) is reported as too long while being skipped,
/// so memory never holds more than one line of at most the limit.
struct LineSplitter {
    static let maximumLineLength = 1_048_576
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private let maximumLength: Int
    /// The start of a line that continues into the next chunk.
    private var carry: [UInt8] = []
    /// The last line emitted from `carry`, kept until the next one is.
    private var carried: [UInt8] = []
    /// Bytes of the current line so far, including carried ones and ones skipped as too long.
    private var currentLength = 0
    private var lineNumber = 0
    private var lineOffset = 0
    private var streamOffset = 0
    /// Bytes at the start of the stream still to be checked for a BOM.
    private var bomPrefix: [UInt8] = []
    private var bomChecked = false

    init(maximumLineLength: Int = LineSplitter.maximumLineLength) {
        self.maximumLength = maximumLineLength
    }

    /// A splitter for a `LineBlock`, which goes on where the block was cut from its stream.
    init(continuing block: LineBlock, maximumLineLength: Int = LineSplitter.maximumLineLength) {
        self.maximumLength = maximumLineLength
        lineNumber = block.linesBefore
        lineOffset = block.firstLineOffset
        streamOffset = block.streamOffset
        bomChecked = true
    }

    /// Takes the whole lines that `chunk` completes, with the line carried into it, as a block
    /// another splitter can split the same way (`init(continuing:)`), and keeps the rest as if
    /// fed. Nil, and nothing taken, while the start of the stream is checked for a BOM, when
    /// the line `chunk` ends first is over the limit (so that it is never held whole), or when
    /// `chunk` ends no line.
    mutating func cutBlock(_ chunk: UnsafeBufferPointer<UInt8>, file: Int) -> LineBlock? {
        guard bomChecked, !chunk.isEmpty, let first = Self.firstNewline(in: chunk, from: 0),
              currentLength + first <= maximumLength, let end = Self.lastNewline(in: chunk)
        else { return nil }
        var bytes = carry
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[...end]))
        var lines = 0
        var start = 0
        while start <= end, let newline = Self.firstNewline(in: chunk, from: start), newline <= end {
            lines += 1
            start = newline + 1
        }
        let block = LineBlock(
            file: file, bytes: bytes, linesBefore: lineNumber, streamOffset: streamOffset - carry.count,
            firstLineOffset: lineOffset)
        lineNumber += lines
        carry.removeAll(keepingCapacity: true)
        streamOffset += end + 1
        beginLine(at: streamOffset)
        split(UnsafeBufferPointer(rebasing: chunk[(end + 1)...])) { _ in }
        return block
    }

    /// Splits the next chunk of the stream.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (SplitLine) -> Void) {
        guard bomChecked else {
            bomPrefix.append(contentsOf: chunk)
            if bomPrefix.count >= Self.byteOrderMark.count { releaseBOMPrefix(emit) }
            return
        }
        split(chunk, emit)
    }

    /// Ends the stream: a pending final line is emitted when the input is `complete`, and dropped
    /// when it was cut short by an input error.
    mutating func finish(complete: Bool, _ emit: (SplitLine) -> Void) {
        if !bomChecked { releaseBOMPrefix(emit) }
        guard complete, currentLength > 0 else { return }
        emitCarried(emit)
    }

    private mutating func releaseBOMPrefix(_ emit: (SplitLine) -> Void) {
        bomChecked = true
        var start = 0
        if bomPrefix.starts(with: Self.byteOrderMark) {
            start = Self.byteOrderMark.count
            streamOffset = Self.byteOrderMark.count
            currentLength = 0
        }
        // The lines split from the prefix point into it: it is kept with the splitter.
        let prefix = bomPrefix
        prefix.withUnsafeBufferPointer { split(UnsafeBufferPointer(rebasing: $0[start...]), emit) }
    }

    private mutating func split(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: (SplitLine) -> Void) {
        var start = 0
        while start < chunk.count {
            guard let newline = Self.firstNewline(in: chunk, from: start) else {
                append(UnsafeBufferPointer(rebasing: chunk[start...]))
                streamOffset += chunk.count - start
                return
            }
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<newline])
            if currentLength == 0 && carry.isEmpty {
                emitLine(piece, length: piece.count, emit)
            } else {
                append(piece)
                emitCarried(emit)
            }
            streamOffset += newline + 1 - start
            beginLine(at: streamOffset)
            start = newline + 1
        }
    }

    /// The last `\n` of a chunk: a line's length from its end, as lines are short.
    private static func lastNewline(in chunk: UnsafeBufferPointer<UInt8>) -> Int? {
        chunk.lastIndex(of: 0x0A)
    }

    private static func firstNewline(in chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let base = UnsafeRawPointer(chunk.baseAddress!)
        guard let found = memchr(base + start, 0x0A, chunk.count - start) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Adds bytes to the current line, keeping them only while the line is within the limit.
    private mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        currentLength += piece.count
        if currentLength <= maximumLength {
            carry.append(contentsOf: piece)
        } else if !carry.isEmpty {
            carry = []
        }
    }

    private mutating func emitCarried(_ emit: (SplitLine) -> Void) {
        let length = currentLength
        swap(&carry, &carried)
        carry.removeAll(keepingCapacity: carry.capacity <= 1 << 16)
        carried.withUnsafeBufferPointer { emitLine($0, length: length, emit) }
    }

    private mutating func emitLine(_ bytes: UnsafeBufferPointer<UInt8>, length: Int, _ emit: (SplitLine) -> Void) {
        lineNumber += 1
        if length > maximumLength {
            emit(.tooLong(number: lineNumber, offset: lineOffset))
            return
        }
        var line = bytes
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        emit(.line(line, number: lineNumber, offset: lineOffset))
    }

    private mutating func beginLine(at offset: Int) {
        lineOffset = offset
        currentLength = 0
    }
}
