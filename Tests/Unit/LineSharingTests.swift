import Foundation
import Synchronization
import Testing
@testable import GroveReport

/// The end of reading shared: a worker with no file left takes blocks of whole lines cut from a
/// file another worker still reads (`LineSplitter.cutBlock`, `LineBlockExchange`). Every line
/// must come out with the number and offset it has in the stream, every reject in file order,
/// and the merged states must report what one worker reports.
struct LineSharingTests {
    /// A BOM, CRLF and blank lines, lines over the limit (10 bytes) and a last line without `\n`.
    private static let stream: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(
        "first\r\n\nshort\nthis line is too long\nok\r\n\(String(repeating: "y", count: 25))\nmid\n\nend-line\nlast".utf8)

    private static func text(_ line: SplitLine) -> (String, Int, Int) {
        switch line {
        case .line(let bytes, let number, let offset): (String(decoding: bytes, as: UTF8.self), number, offset)
        case .tooLong(let number, let offset): ("TOO_LONG", number, offset)
        }
    }

    /// Splits the stream in chunks of `chunk` bytes, cutting a block from every chunk that
    /// `cut` picks and splitting it apart, as a helper would.
    private static func split(chunk: Int, cut: (Int) -> Bool) -> (lines: [(String, Int, Int)], blocks: Int) {
        var splitter = LineSplitter(maximumLineLength: 10)
        var lines: [(String, Int, Int)] = []
        var blocks = 0
        var start = 0
        var number = 0
        while start < stream.count {
            let end = min(start + chunk, stream.count)
            stream[start..<end].withUnsafeBufferPointer { bytes in
                if cut(number), let block = splitter.cutBlock(bytes, file: 0) {
                    blocks += 1
                    var helper = LineSplitter(continuing: block, maximumLineLength: 10)
                    block.bytes.withUnsafeBufferPointer { helper.feed($0) { lines.append(text($0)) } }
                    helper.finish(complete: true) { lines.append(text($0)) }
                } else {
                    splitter.feed(bytes) { lines.append(text($0)) }
                }
            }
            start = end
            number += 1
        }
        splitter.finish(complete: true) { lines.append(text($0)) }
        return (lines, blocks)
    }

    @Test(arguments: [1, 2, 3, 5, 8, 13, 100])
    func aBlockSplitsAsTheStreamWould(chunk: Int) {
        let whole = Self.split(chunk: chunk) { _ in false }
        #expect(whole.lines.map(\.0) == ["first", "", "short", "TOO_LONG", "ok", "TOO_LONG", "mid", "", "end-line", "last"])
        for pattern in [{ (_: Int) in true }, { $0 % 2 == 1 }, { $0 % 3 == 0 }] {
            let cut = Self.split(chunk: chunk, cut: pattern)
            #expect(cut.lines.map(\.0) == whole.lines.map(\.0))
            #expect(cut.lines.map(\.1) == whole.lines.map(\.1))
            #expect(cut.lines.map(\.2) == whole.lines.map(\.2))
            // A first chunk is fed whole (the BOM check), so a stream of one chunk has no block.
            if chunk >= 8 && chunk < Self.stream.count { #expect(cut.blocks > 0) }
        }
    }

    /// Generated lines with a broken line after every third, as plain text in `directory`.
    private static func writeInput(_ directory: String, name: String, events: Int, seed: UInt64) throws -> InputFile {
        var lines: [String] = []
        for (index, line) in try generatedLines(events: events, seed: seed).enumerated() {
            lines.append(line)
            if index % 3 == 0 { lines.append("{broken \(index)") }
        }
        let path = "\(directory)/\(name)"
        try writeFile(path, Array(lines.joined(separator: "\n").utf8))
        return InputFile(displayName: name, path: path)
    }

    @Test func aHelperWaitingGetsBlocksAndTheirRejectsKeepTheirPlace() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try Self.writeInput(directory, name: "events.ndjson", events: 3_000, seed: 41)

        var single = PartialState()
        var alone = FileProcessor(rejectsRaw: true, chunkSize: 4096)
        let reference = RejectSpool(path: "\(directory)/reference.ndjson")
        try alone.process(file, into: &single, rejects: reference)
        _ = try reference.close()

        let exchange = LineBlockExchange()
        exchange.readerStarted()
        let helped = Mutex<PartialState?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var helper = FileProcessor(rejectsRaw: true, chunkSize: 4096)
            var state = PartialState()
            while let block = exchange.take() {
                let spool = RejectSpool(path: "\(directory)/segment-\(block.segment).ndjson")
                try? helper.process(block, of: file, into: &state, rejects: spool)
                _ = try? spool.close()
            }
            helped.withLock { [state] in $0 = state }
            done.signal()
        }
        while !exchange.helperWaiting { usleep(1_000) }
        var reader = FileProcessor(rejectsRaw: true, chunkSize: 4096)
        var state = PartialState()
        let first = RejectSpool(path: "\(directory)/segment-0.ndjson")
        let sharing = FileSharing(exchange: exchange, file: 0) { RejectSpool(path: "\(directory)/segment-\($0).ndjson") }
        let segments = try reader.process(file, into: &state, rejects: first, sharing: sharing)
        _ = try first.close()
        exchange.readerFinished()
        done.wait()

        // The first chunk is read whole (its BOM check), the second goes to the waiting helper.
        #expect(segments >= 3)
        let helperState = try #require(helped.withLock { $0 })
        #expect(helperState.accounting.lines > 0)
        #expect(state.accounting.lines + helperState.accounting.lines == single.accounting.lines)
        var rejects: [UInt8] = []
        for segment in 0..<segments where FileManager.default.fileExists(atPath: "\(directory)/segment-\(segment).ndjson") {
            rejects += try readFile("\(directory)/segment-\(segment).ndjson")
        }
        #expect(rejects == (try readFile("\(directory)/reference.ndjson")))
        state.merge(helperState)
        #expect(state.accounting == single.accounting)
        #expect(renderedReports(state) == renderedReports(single))
    }

    @Test func twoWorkersReadAsOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let big = try Self.writeInput(directory, name: "a-big.ndjson", events: 3_000, seed: 43)
        let small = try Self.writeInput(directory, name: "b-small.ndjson", events: 20, seed: 44)
        func read(jobs: Int) throws -> (state: PartialState, rejects: [UInt8], lines: [Int]) {
            let scratch = "\(directory)/scratch-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let (states, spools, lines) = try Pipeline.read(
                [big, small], jobs: jobs, rejectsRaw: true, scratch: scratch, progress: nil, inflate: .zlib,
                chunkSize: 4096, into: PartialState.self)
            var merged = PartialState()
            for state in states { merged.merge(state) }
            return (merged, try spools.flatMap(readFile), lines)
        }
        let one = try read(jobs: 1)
        for _ in 0..<3 {
            let two = try read(jobs: 2)
            #expect(two.lines == one.lines)
            #expect(two.rejects == one.rejects)
            #expect(two.state.accounting == one.state.accounting)
            #expect(renderedReports(two.state) == renderedReports(one.state))
        }
    }
}
