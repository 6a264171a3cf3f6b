import Foundation
import Testing
@testable import GroveReport

/// `bytes_read` counts an input up to its end or to the compressed offset of its input error, the
/// same for a file, standard input and a Spark stage (docs/OUTPUTS.md, `summary.json`).
@Suite(.serialized)
struct BytesReadTests {
    /// A gzip file of hard-to-compress lines with one byte flipped at 100,000.
    func corruptGzip() throws -> [UInt8] {
        let lines = (0..<6000).map { index in
            let clickId = SHA256Digest.hex(Array(String(index).utf8))
            return #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"\#(clickId)","appKey":"k","slug":"s","route":"app"}"#
        }
        var compressed = try gzip(ndjson(lines))
        #expect(compressed.count > 200_000)
        compressed[100_000] ^= 0xFF
        return compressed
    }

    func summary(_ directory: String) throws -> JSONValue {
        try #require(JSONValue.parse(try readFile(directory + "/summary.json")))
    }

    @Test func aCorruptGzipCountsUpToTheFaultFromFileStdinAndStage() throws {
        let directory = try temporaryDirectory()
        let compressed = try corruptGzip()
        try writeFile(directory + "/in.gz", compressed)
        let fromFile = try execute(["run", "in.gz", "--out", "file"], in: directory)
        #expect(fromFile.status == 1)
        let fileSummary = try summary(directory + "/file")
        guard case .array(let errors)? = fileSummary["input_errors"], let offset = errors.first?["offset"] else {
            Issue.record("no input error")
            return
        }
        #expect(fileSummary["bytes_read"] == offset)
        #expect(offset != .number(Double(compressed.count)))

        let fromStdin = try execute(["run", "-", "--out", "stdin"], in: directory, stdin: compressed)
        #expect(fromStdin.status == 1)
        #expect(try summary(directory + "/stdin")["bytes_read"] == offset)

        let partial = try execute(["partial", "--name", "in.gz"], in: directory, stdin: compressed)
        #expect(partial.status == 0, "\(partial.stderr)")
        let render = try execute(["render", "--out", "stage"], in: directory, stdin: Array(partial.stdout.utf8))
        #expect(render.status == 1)
        #expect(try summary(directory + "/stage")["bytes_read"] == offset)
    }

    @Test func aWholeInputCountsEveryByte() throws {
        let directory = try temporaryDirectory()
        let compressed = try gzip(ndjson(EndToEndTests.good))
        try writeFile(directory + "/in.gz", compressed)
        #expect(try execute(["run", "in.gz", "--out", "file"], in: directory).status == 0)
        #expect(try summary(directory + "/file")["bytes_read"] == .number(Double(compressed.count)))
        #expect(try execute(["run", "-", "--out", "stdin"], in: directory, stdin: compressed).status == 0)
        #expect(try summary(directory + "/stdin")["bytes_read"] == .number(Double(compressed.count)))
    }
}
