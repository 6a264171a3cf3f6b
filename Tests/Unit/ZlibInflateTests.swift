import CZlib
import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// The zlib backend computes the gzip CRC itself (`inflateAllCheckedHere`) and gives validating
/// zlib's bytes, faults and offsets on every input, well-formed or not.
struct ZlibInflateTests {
    func expectSameAsValidating(_ bytes: [UInt8], chunkSize: Int = 4096, _ comment: Comment? = nil) throws {
        let reference = try GzipReads.validating(bytes, chunkSize: chunkSize)
        let read = try GzipReads.read(bytes, backend: .zlib, chunkSize: chunkSize)
        #expect(read.output == reference.output, comment)
        #expect(read.counts == reference.counts, comment)
        #expect(read.error == reference.error, comment)
    }

    /// Whether the read with the CRC computed here got to the end itself, without falling back.
    func finishesAlone(_ bytes: [UInt8], chunkSize: Int) throws -> Bool {
        try GzipReads.withSource(bytes, chunkSize: chunkSize) { source in
            var counts = ByteCounts()
            let outcome = DecompressingReader(chunkSize: chunkSize).inflateAllCheckedHere(&source, counts: &counts) { _ in }
            if case .finished = outcome { return counts.decompressed > 0 }
            return false
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
        for chunkSize in [5, 64, 4096, 1 << 20] {
            #expect(try finishesAlone(first + second + empty + first, chunkSize: chunkSize), "chunk \(chunkSize)")
            #expect(try finishesAlone(first + [UInt8](repeating: 0, count: 300), chunkSize: chunkSize))
            try expectSameAsValidating(first + second + empty + first, chunkSize: chunkSize)
            try expectSameAsValidating(second + [UInt8](repeating: 0, count: 300), chunkSize: chunkSize)
        }
    }

    @Test func trailingBytesTruncationAndChecksumsAreReportedAsZlibReportsThem() throws {
        let compressed = try gzip(text)
        try expectSameAsValidating(compressed + Array("junk".utf8))
        try expectSameAsValidating(compressed + [0, 0, 7])
        try expectSameAsValidating(compressed + [0x1F])
        try expectSameAsValidating(compressed + [0x1F, 0x8B, 8])
        for cut in stride(from: 1, to: compressed.count, by: max(1, compressed.count / 60)) {
            try expectSameAsValidating(Array(compressed.prefix(cut)), chunkSize: 512, "cut at \(cut)")
        }
        for position in (compressed.count - 8)..<compressed.count {
            var damaged = compressed
            damaged[position] ^= 0x40 // CRC-32 and length trailer
            for chunkSize in [3, 4096] {
                try expectSameAsValidating(damaged, chunkSize: chunkSize, "trailer byte \(position)")
                try expectSameAsValidating(damaged + compressed, chunkSize: chunkSize, "trailer byte \(position), then a member")
                try expectSameAsValidating(Array(damaged.dropLast(2)), chunkSize: chunkSize, "trailer byte \(position), cut")
            }
        }
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
        let compressed = try gzip(text)
        var reserved = compressed
        reserved[3] |= 0x20
        try expectSameAsValidating(reserved)
        var headerCRC = compressed
        headerCRC[3] |= 0x02 // claims a header CRC that is not there
        try expectSameAsValidating(headerCRC)
        var method = compressed
        method[2] = 7
        try expectSameAsValidating(method)
    }

    @Test func corruptDeflateDataGivesZlibsLinesFaultAndOffset() throws {
        let compressed = try gzip(text)
        var rng = SeededRandom(seed: 12)
        for trial in 0..<300 {
            var damaged = compressed
            let position = 10 + rng.below(compressed.count - 18)
            damaged[position] ^= UInt8(1 + rng.below(255))
            if trial % 3 == 0 { damaged[10 + rng.below(compressed.count - 18)] = UInt8(rng.below(256)) }
            try expectSameAsValidating(damaged, chunkSize: trial % 2 == 0 ? 4096 : 1 << 20, "trial \(trial) at \(position)")
        }
    }
}
