import Testing
@testable import GroveReport

/// `LineClassifier` parses a batch of lines and brings their ids into the cache before it
/// classifies them one by one: whatever the batch, every line must come out as it does alone,
/// in order, and the cache hints must leave the symbol table as it was.
struct LineClassifierTests {
    /// Generated lines (2 % defective) and lines that take every path of a batch: blank, not
    /// JSON, a repeated key, an escaped id (which the hints pass over), a click, an open, a binding.
    private static func lines() throws -> [String] {
        let mixed = [
            "",
            "   ",
            "{not json",
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c1","clickId":"c2","appKey":"k","slug":"s","route":"app"}"#,
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c\u0031","appKey":"k","slug":"s","route":"app"}"#,
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c1","appKey":"k","slug":"s","route":"app"}"#,
            #"{"type":"link_open","ts":"2026-03-01T10:00:01Z","openId":"o1","appKey":"k","slug":"s","destination":"https://shop.example.com/s"}"#,
            #"{"type":"click_bind","ts":"2026-03-01T10:00:02Z","clickId":"c1","verifiedEmail":"u1@mail.example.org"}"#,
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":7,"appKey":"k","slug":"s","route":"app"}"#,
        ]
        return try mixed + generatedLines(events: 2_000, seed: 23, files: 1) + mixed
    }

    /// Each line classified alone, with a classifier and table of its own for the whole run.
    private static func oneByOne(_ lines: [String]) -> (outcomes: [LineOutcome], symbols: SymbolTable) {
        var classifier = LineClassifier()
        var symbols = SymbolTable()
        let outcomes = lines.map { line in
            Array(line.utf8).withUnsafeBufferPointer { classifier.classify($0, &symbols) }
        }
        return (outcomes, symbols)
    }

    /// The lines classified in batches of `size`, as `FileProcessor` does.
    private static func batched(_ lines: [String], size: Int) -> (outcomes: [LineOutcome], symbols: SymbolTable) {
        var classifier = LineClassifier()
        var symbols = SymbolTable()
        var outcomes: [LineOutcome] = []
        let bytes = lines.map { Array($0.utf8) }
        var start = 0
        while start < bytes.count {
            let group = Array(bytes[start..<min(start + size, bytes.count)])
            let pointers = group.map { line in
                let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(line.count, 1))
                _ = copy.initialize(from: line)
                return UnsafeBufferPointer(rebasing: copy[..<line.count])
            }
            defer { pointers.forEach { UnsafeMutableRawPointer(mutating: $0.baseAddress!).deallocate() } }
            var batch = LineBatch()
            for (index, line) in pointers.enumerated() { batch.append(line, number: start + index + 1, offset: 0) }
            classifier.prepare(batch, &symbols)
            for index in pointers.indices {
                outcomes.append(classifier.outcome(ofLine: index, batch.line(index), &symbols))
            }
            start += size
        }
        return (outcomes, symbols)
    }

    @Test(arguments: [1, 2, 3, 5, LineBatch.capacity])
    func everyBatchClassifiesAsOneLineAtATime(size: Int) throws {
        let lines = try Self.lines()
        let alone = Self.oneByOne(lines)
        let together = Self.batched(lines, size: size)
        #expect(together.outcomes == alone.outcomes)
        #expect(together.symbols.count == alone.symbols.count)
        // Rejected, ignored and accepted lines all occur, so every path was taken; the generated
        // lines bring installs and customers.
        #expect(alone.outcomes.contains { if case .rejected(.invalidJSON) = $0 { true } else { false } })
        #expect(alone.outcomes.contains { if case .rejected(.duplicateKey) = $0 { true } else { false } })
        #expect(alone.outcomes.contains { if case .ignored(.blank) = $0 { true } else { false } })
        #expect(alone.outcomes.contains { if case .accepted = $0 { true } else { false } })
    }

    @Test func cacheHintsInternNothing() {
        var classifier = LineClassifier()
        var symbols = SymbolTable()
        let line = Array(#"{"type":"link_open","ts":"2026-03-01T10:00:01Z","openId":"o1","appKey":"k","slug":"s","destination":"https://shop.example.com/s"}"#.utf8)
        line.withUnsafeBufferPointer { bytes in
            var batch = LineBatch()
            batch.append(bytes, number: 1, offset: 0)
            classifier.prepare(batch, &symbols)
            #expect(symbols.count == 0)
            guard case .accepted = classifier.outcome(ofLine: 0, bytes, &symbols) else {
                Issue.record("the open was not accepted")
                return
            }
            #expect(symbols.lookup(ByteString("o1")) != nil)
        }
    }
}
