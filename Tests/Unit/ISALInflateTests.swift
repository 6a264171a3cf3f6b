import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport
@testable import grove_report

/// `--inflate isal` gives zlib's bytes, faults and offsets on every input, well-formed or not.
@Suite(.enabled(if: ISALLibrary.loadError == nil, "needs libisal.so.2 (Debian libisal2; .ci/install-deps)"))
struct ISALInflateTests {
    /// Reads `bytes` with ISA-L and expects what validating zlib reads.
    func expectSameAsZlib(_ bytes: [UInt8], chunkSize: Int = 4096, _ comment: Comment? = nil) throws {
        try GzipReads.expectSameAsValidating(bytes, backend: .isal, chunkSize: chunkSize, comment)
    }

    /// Whether ISA-L read `bytes` to the end itself, without falling back to zlib.
    func isalFinishesAlone(_ bytes: [UInt8], chunkSize: Int) throws -> Bool {
        guard case .success(let library) = ISALLibrary.shared else { return false }
        return try GzipReads.finishesAlone(bytes, chunkSize: chunkSize) { source, counts in
            DecompressingReader(chunkSize: chunkSize, backend: .isal).inflateAllWithISAL(&source, library: library, counts: &counts) { _ in }
        }
    }

    var text: [UInt8] {
        ndjson((0..<3000).map { #"{"ts":"2026-03-02T00:00:00Z","type":"decision","n":\#($0),"pad":"\#(String(repeating: "x", count: $0 % 97))"}"# })
    }

    @Test func wellFormedMultiMemberFilesWithPaddingAreInflatedByISALAlone() throws {
        let first = try gzip(text)
        let second = try gzip(Array(text.prefix(5000)))
        try GzipReads.expectWellFormedReadAlone([first, second, first], backend: .isal, finishesAlone: isalFinishesAlone(_:chunkSize:))
    }

    @Test func trailingBytesTruncationAndChecksumsAreReportedAsZlibReportsThem() throws {
        try GzipReads.expectBadEndingsAsValidating(of: try gzip(text), backend: .isal)
    }

    @Test func zeroPaddingBeforeAnotherMemberIsTrailingBytes() throws {
        for bytes in try ZlibInflateTests.paddedMembers() {
            for chunkSize in 2...20 {
                try expectSameAsZlib(bytes, chunkSize: chunkSize, "\(bytes.count) bytes, chunk \(chunkSize)")
            }
        }
    }

    @Test func headersWithFlagsZlibChecksItselfAreLeftToZlib() throws {
        for bytes in GzipReads.flaggedHeaders(of: try gzip(text)) { try expectSameAsZlib(bytes) }
    }

    @Test func corruptDeflateDataGivesZlibsLinesFaultAndOffset() throws {
        for damaged in GzipReads.corruptions(of: try gzip(text), seed: 11) {
            try expectSameAsZlib(damaged.bytes, chunkSize: damaged.chunkSize, Comment(rawValue: damaged.name))
        }
    }

    @Test func aNamedPipeWhichCannotBeReadTwiceIsInflatedWithZlib() throws {
        let truncated = Array(try gzip(text).dropLast(40))
        let zlib = try GzipReads.validating(truncated, chunkSize: 4096)
        let directory = try temporaryDirectory("isal-pipe")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pipe = directory + "/pipe.gz"
        #expect(mkfifo(pipe, 0o600) == 0)
        Thread.detachNewThread {
            let writer = open(pipe, O_WRONLY)
            guard writer >= 0 else { return }
            _ = truncated.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            close(writer)
        }
        var output: [UInt8] = []
        let (counts, error) = DecompressingReader(chunkSize: 4096, backend: .isal)
            .read(InputFile(displayName: "in.gz", path: pipe)) { output.append(contentsOf: $0) }
        #expect(output == zlib.output && counts == zlib.counts && error == zlib.error)
        #expect(error?.error.contains("truncated") == true)
    }

    @Test func theSampleAndAGeneratedSetGiveByteIdenticalReportsWithEitherBackend() throws {
        let directory = try temporaryDirectory("isal-reports")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try LogGenerator.generate(
            GeneratorOptions(events: 20_000, files: 1, seed: 4, badLineShare: 0.02, shape: .production),
            into: directory + "/production")
        let damaged = directory + "/damaged.gz"
        let sample = try readFile(packageRoot + "/SampleData/events-0002.ndjson.gz")
        try writeFile(damaged, try readFile(packageRoot + "/SampleData/events-0001.ndjson.gz") + sample.prefix(sample.count / 2))
        for inputs in [[packageRoot + "/SampleData"], [directory + "/production"], [damaged]] {
            for jobs in [1, 2] {
                var reports: [[String: String]] = []
                for backend in [InflateBackend.zlib, .isal] {
                    let out = directory + "/out-\(reports.count)"
                    var options = RunOptions(inputs: inputs, outputDirectory: out, jobs: jobs, maxRejectRate: 1)
                    options.inflate = backend
                    _ = try Pipeline.run(options)
                    reports.append(try reportContents(out))
                }
                #expect(reports[0] == reports[1], "\(inputs), --jobs \(jobs)")
            }
        }
    }
}

/// `--inflate` on the command line.
struct InflateOptionTests {
    @Test func isalWithoutTheLibraryIsAUsageErrorAndAutoFallsBackToZlib() throws {
        #expect(throws: UsageError.self) { try InflateChoice.isal.resolve(isalLoadError: "libisal.so.2: cannot open") }
        do {
            _ = try InflateChoice.isal.resolve(isalLoadError: "libisal.so.2: cannot open")
        } catch {
            #expect(error.message.contains("libisal2") && error.message.contains("--inflate zlib"))
        }
        #expect(try InflateChoice.auto.resolve(isalLoadError: "missing") == .zlib)
        #expect(try InflateChoice.auto.resolve(isalLoadError: nil) == .isal)
        #expect(try InflateChoice.zlib.resolve(isalLoadError: nil) == .zlib)
        if case .success = ISALLibrary.load("libgrove-no-such-library.so.9") { Issue.record("loaded a missing library") }
    }

    @Test func theOptionIsParsedAndZlibIsTheDefault() throws {
        guard case .run(let plain) = try Command.parse(["run"]) else { throw UsageError("not run") }
        #expect(plain.inflate == .zlib)
        guard case .validate(let zlib, _) = try Command.parse(["validate", "--inflate", "zlib"]) else { throw UsageError("not validate") }
        #expect(zlib.inflate == .zlib)
        #expect(throws: UsageError.self) { try Command.parse(["run", "--inflate", "gzip"]) }
    }
}
