import Foundation
import Testing
@testable import GroveReport

/// docs/INPUTS.md: files, directories, stdin, gzip members and faults, line endings.
struct InputTests {
    /// Splits a byte stream fed in chunks of `chunk` bytes; returns (text or "TOO_LONG", number, offset).
    /// A line's bytes are read only once the splitter has returned, as a batch of lines is
    /// (`FileProcessor`): the splitter promises them until it is next fed or finished.
    func split(_ bytes: [UInt8], chunk: Int = 7, complete: Bool = true, limit: Int = 1_048_576) -> [(String, Int, Int)] {
        var splitter = LineSplitter(maximumLineLength: limit)
        var lines: [(String, Int, Int)] = []
        var held: [SplitLine] = []
        let hold: (SplitLine) -> Void = { held.append($0) }
        let readHeld = {
            for line in held {
                switch line {
                case .line(let content, let number, let offset):
                    lines.append((String(decoding: content, as: UTF8.self), number, offset))
                case .tooLong(let number, let offset):
                    lines.append(("TOO_LONG", number, offset))
                }
            }
            held = []
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            bytes[start..<end].withUnsafeBufferPointer {
                splitter.feed($0, hold)
                readHeld()
            }
            start = end
        }
        splitter.finish(complete: complete, hold)
        readHeld()
        return lines
    }

    @Test func crlfBomBlankAndFinalLineWithoutNewline() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a\r\n\nb\r\nlast".utf8)
        for chunk in [1, 2, 3, 5, 100] {
            let lines = split(bytes, chunk: chunk)
            #expect(lines.map(\.0) == ["a", "", "b", "last"])
            #expect(lines.map(\.1) == [1, 2, 3, 4])
            // Offsets count the BOM: line 1 at 0, line 2 after "BOM a \r \n".
            #expect(lines.map(\.2) == [0, 6, 7, 10])
        }
    }

    @Test func aBOMAfterTheStartIsJustBytes() {
        let bytes = Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b\n".utf8)
        #expect(split(bytes).map(\.0) == ["a", "\u{FEFF}b"])
    }

    @Test func anIncompleteStreamDropsItsPartialTail() {
        let lines = split(Array("one\ntwo\nthr".utf8), complete: false)
        #expect(lines.map(\.0) == ["one", "two"])
    }

    @Test func overlongLinesAreReportedWithoutHoldingThem() {
        let long = String(repeating: "x", count: 25)
        let bytes = Array("ok\n\(long)\nexact-ten!\n\(long)".utf8)
        for chunk in [1, 4, 1000] {
            let lines = split(bytes, chunk: chunk, limit: 10)
            #expect(lines.map(\.0) == ["ok", "TOO_LONG", "exact-ten!", "TOO_LONG"])
            #expect(lines.map(\.2) == [0, 3, 29, 40])
        }
    }

    @Test func theOneMebibyteLimitCountsBytesBeforeTheNewline() throws {
        let exact = [UInt8](repeating: UInt8(ascii: " "), count: 1_048_576)
        let over = exact + [UInt8(ascii: " ")]
        let lines = split(exact + [0x0A] + over + [0x0A], chunk: 65_536)
        #expect(lines.map(\.0.count) == [1_048_576, 8])
        #expect(lines[1].0 == "TOO_LONG")
    }

    // MARK: decompression

    func readAll(_ bytes: [UInt8], chunkSize: Int = 64) throws -> ([UInt8], ByteCounts, InputError?) {
        let directory = try temporaryDirectory()
        let path = directory + "/input"
        try writeFile(path, bytes)
        var output: [UInt8] = []
        let (counts, error) = DecompressingReader(chunkSize: chunkSize).read(InputFile(displayName: "in.gz", path: path)) {
            output.append(contentsOf: $0)
        }
        return (output, counts, error)
    }

    @Test func plainAndGzipAreDetectedByContentNotName() throws {
        let text = ndjson(["{\"a\":1}", "{\"b\":2}"])
        let (plain, plainCounts, plainError) = try readAll(text)
        #expect(plain == text && plainError == nil && plainCounts.read == text.count)
        let compressed = try gzip(text)
        let (inflated, counts, error) = try readAll(compressed)
        #expect(inflated == text && error == nil)
        #expect(counts.read == compressed.count && counts.decompressed == text.count)
    }

    @Test func everyMemberOfAMultiMemberFileIsRead() throws {
        let first = ndjson(["{\"n\":1}"])
        let second = ndjson(["{\"n\":2}", "{\"n\":3}"])
        let (output, _, error) = try readAll(try gzip(first) + gzip(second) + gzip(first), chunkSize: 5)
        #expect(output == first + second + first)
        #expect(error == nil)
    }

    @Test func zeroPaddingAfterTheLastMemberIsIgnored() throws {
        let text = ndjson(["{\"n\":1}"])
        let (output, _, error) = try readAll(try gzip(text) + [UInt8](repeating: 0, count: 100))
        #expect(output == text && error == nil)
    }

    @Test func otherTrailingBytesAreAnInputError() throws {
        let text = ndjson(["{\"n\":1}"])
        let compressed = try gzip(text)
        let (output, _, error) = try readAll(compressed + Array("junk".utf8))
        #expect(output == text)
        #expect(error?.offset == compressed.count)
        #expect(error?.error.contains("trailing") == true)
    }

    @Test func aTruncatedStreamKeepsWhatWasInflatedAndNamesTheOffset() throws {
        let text = ndjson((0..<2000).map { "{\"n\":\($0)}" })
        let compressed = try gzip(text)
        let cut = Array(compressed.prefix(compressed.count - 20))
        let (output, _, error) = try readAll(cut)
        #expect(error?.offset == cut.count)
        #expect(error?.error.contains("truncated") == true)
        #expect(!output.isEmpty && text.starts(with: output))
    }

    @Test func aCorruptStreamIsAnInputErrorAtTheFault() throws {
        let text = ndjson((0..<50).map { "{\"n\":\($0)}" })
        var compressed = try gzip(text)
        compressed[compressed.count - 6] ^= 0xFF // inside the CRC32 trailer
        let (output, _, error) = try readAll(compressed)
        #expect(output == text)
        #expect(error?.error.contains("corrupt") == true)
        #expect(error?.offset ?? 0 > 0)
    }

    @Test func aMissingFileIsAnInputError() {
        let (counts, error) = DecompressingReader().read(InputFile(displayName: "nope.gz", path: "/nonexistent/nope.gz")) { _ in }
        #expect(counts.read == 0)
        #expect(error?.file == "nope.gz")
        #expect(error?.error.contains("cannot open") == true)
    }

    // MARK: discovery

    @Test func directoriesAreWalkedRecursivelyInByteOrderSkippingHiddenAndOtherNames() throws {
        let root = try temporaryDirectory()
        for name in ["b.ndjson", "a.gz", "sub/z.jsonl", "sub/deeper/y.jsonl.gz", "a.ndjson.gz", ".hidden.ndjson",
                     ".git/x.ndjson", "notes.txt", "B.ndjson", "sub.ndjson"] {
            try writeFile(root + "/logs/" + name, [])
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/logs/link.ndjson", withDestinationPath: root + "/logs/b.ndjson")
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try writeFile(root + "/elsewhere/far.ndjson", [])
        try FileManager.default.createSymbolicLink(atPath: root + "/logs/dirlink", withDestinationPath: root + "/elsewhere")
        let (files, errors) = InputDiscovery.expand([root + "/logs/"])
        let names = files.map { String($0.displayName.dropFirst(root.count + 1)) }
        #expect(names == ["logs/B.ndjson", "logs/a.gz", "logs/a.ndjson.gz", "logs/b.ndjson", "logs/link.ndjson",
                          "logs/sub.ndjson", "logs/sub/deeper/y.jsonl.gz", "logs/sub/z.jsonl"])
        #expect(errors.isEmpty)
    }

    @Test func aNamedFileIsReadWhateverItsNameAndStdinIsADash() throws {
        let root = try temporaryDirectory()
        try writeFile(root + "/data.txt", [])
        let (files, errors) = InputDiscovery.expand([root + "/data.txt", "-", root + "/missing.gz"])
        #expect(files.map(\.displayName) == [root + "/data.txt", "-"])
        #expect(files[1].path == nil)
        #expect(errors.map(\.file) == [root + "/missing.gz"])
    }
}

/// SHA-256 against the FIPS 180-2 vectors, whole and fed in pieces.
@Test func sha256KnownDigests() {
    #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    var incremental = SHA256Digest()
    incremental.update(Array("ab".utf8))
    incremental.update(Array("c".utf8))
    #expect(incremental.hexDigest() == SHA256Digest.hex(Array("abc".utf8)))
}
