import CZlib
import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// The zlib backend computes the gzip CRC itself (`inflateAllCheckedHere`) and gives validating
/// zlib's bytes, faults and offsets on every input, well-formed or not.
struct ZlibInflateTests {
    func expectSameAsValidating(_ bytes: [UInt8], chunkSize: Int = 4096, _ comment: Comment? = nil) throws {
        try GzipReads.expectSameAsValidating(bytes, backend: .zlib, chunkSize: chunkSize, comment)
    }

    /// Whether the read with the CRC computed here got to the end itself, without falling back.
    func finishesAlone(_ bytes: [UInt8], chunkSize: Int) throws -> Bool {
        try GzipReads.finishesAlone(bytes, chunkSize: chunkSize) { source, counts in
            DecompressingReader(chunkSize: chunkSize).inflateAllCheckedHere(&source, counts: &counts) { _ in }
        }
    }

    var text: [UInt8] {
        ndjson((0..<3000).map { #"{"ts":"2026-03-02T00:00:00Z","type":"click","n":\#($0),"pad":"\#(String(repeating: "y", count: $0 % 89))"}"# })
    }

    @Test func theChecksumIsZlibsForEveryLengthAlignmentAndSplit() {
        var rng = SeededRandom(seed: 5)
        let bytes = (0..<5000).map { _ in UInt8(rng.below(256)) }
        bytes.withUnsafeBufferPointer { all in
            for start in 0..<17 {
                for count in Array(0...300) + [1023, 1024, 4096, 4983 - start] {
                    let part = UnsafeBufferPointer(rebasing: all[start..<(start + count)])
                    var checksum = GzipChecksum()
                    checksum.update(part)
                    #expect(checksum.value == UInt32(crc32(0, part.baseAddress, UInt32(count))), "\(start), \(count)")
                }
            }
            var pieces = GzipChecksum()
            var start = 0
            while start < all.count {
                let end = min(all.count, start + rng.below(700))
                pieces.update(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
            #expect(pieces.value == UInt32(crc32(0, all.baseAddress, UInt32(all.count))))
        }
    }

    @Test func wellFormedMultiMemberFilesWithPaddingAreCheckedWithoutFallingBack() throws {
        let first = try gzip(text)
        let second = try gzip(Array(text.prefix(5000)))
        let empty = try gzip([])
        try GzipReads.expectWellFormedReadAlone([first, second, empty, first], backend: .zlib, finishesAlone: finishesAlone(_:chunkSize:))
    }

    @Test func trailingBytesTruncationAndChecksumsAreReportedAsZlibReportsThem() throws {
        try GzipReads.expectBadEndingsAsValidating(of: try gzip(text), backend: .zlib)
    }

    /// Zero padding followed by another member is trailing bytes, whatever the padding's length
    /// against the buffer: once the padding has been skipped past a refill, the bytes first seen
    /// after the member are stale (found by `Fuzz/Targets/LineSplitterTarget`, whose input is the
    /// last case).
    @Test func zeroPaddingBeforeAnotherMemberIsTrailingBytes() throws {
        for bytes in try Self.paddedMembers() {
            for chunkSize in 2...20 {
                try expectSameAsValidating(bytes, chunkSize: chunkSize, "\(bytes.count) bytes, chunk \(chunkSize)")
            }
        }
    }

    /// An empty member, zeros, then another member; and the fuzzer's input.
    static func paddedMembers() throws -> [[UInt8]] {
        let (empty, small) = (try gzip([]), try gzip(Array("abc\n".utf8)))
        let found = Array(Data(base64Encoded: "H4sIAAAAAAEAAAMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAH4sIAAAAAAEAADIDAAAAAAAAAAAAHwpMCjrnAAAAAAAAAAAACe8L")!)
        return (1...40).map { empty + [UInt8](repeating: 0, count: $0) + small } + [found]
    }

    @Test func headersWithFlagsZlibChecksItselfAreLeftToZlib() throws {
        for bytes in GzipReads.flaggedHeaders(of: try gzip(text)) { try expectSameAsValidating(bytes) }
    }

    @Test func corruptDeflateDataGivesZlibsLinesFaultAndOffset() throws {
        for damaged in GzipReads.corruptions(of: try gzip(text), seed: 12) {
            try expectSameAsValidating(damaged.bytes, chunkSize: damaged.chunkSize, Comment(rawValue: damaged.name))
        }
    }
}
