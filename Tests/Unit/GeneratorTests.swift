import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// A fresh directory under the system's temporary directory, removed after `body`.
private func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("grove-generator-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

private func readAll(_ paths: [String]) throws -> [[UInt8]] {
    try paths.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
}

/// The lines of all files, without their `\n`.
private func decompressedLines(_ paths: [String]) throws -> [ArraySlice<UInt8>] {
    try paths.flatMap { path -> [ArraySlice<UInt8>] in
        var lines = try gunzip(path).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(lines.last?.isEmpty == true, "\(path) must end with a newline")
        lines.removeLast()
        return lines
    }
}

@Test func sameSeedWritesByteIdenticalFiles() throws {
    let options = GeneratorOptions(events: 5_000, files: 2, seed: 7)
    try withTemporaryDirectory { directory in
        let a = try LogGenerator.generate(options, into: directory + "/a")
        let b = try LogGenerator.generate(options, into: directory + "/b")
        #expect(a.lines == b.lines && a.badLines == b.badLines && a.ignoredLines == b.ignoredLines)
        #expect(try readAll(a.files) == readAll(b.files))
    }
}

@Test func differentSeedsWriteDifferentFiles() throws {
    try withTemporaryDirectory { directory in
        let a = try LogGenerator.generate(GeneratorOptions(events: 2_000, seed: 1), into: directory + "/a")
        let b = try LogGenerator.generate(GeneratorOptions(events: 2_000, seed: 2), into: directory + "/b")
        #expect(try readAll(a.files) != readAll(b.files))
    }
}

@Test func writesExactlyTheRequestedNumberOfLinesBadOnesIncluded() throws {
    try withTemporaryDirectory { directory in
        let options = GeneratorOptions(events: 10_001, files: 3, seed: 3, badLineShare: 0.05)
        let summary = try LogGenerator.generate(options, into: directory)
        #expect(summary.lines == 10_001)
        #expect(try decompressedLines(summary.files).count == 10_001)
        #expect(summary.badLines > 0 && summary.ignoredLines > 0)
        #expect(summary.badLines + summary.ignoredLines < 1_000)
    }
}

@Test func noBadLinesWhenTheirShareIsZero() throws {
    try withTemporaryDirectory { directory in
        let options = GeneratorOptions(events: 3_000, seed: 4, badLineShare: 0)
        let summary = try LogGenerator.generate(options, into: directory)
        #expect(summary.badLines == 0 && summary.ignoredLines == 0)
    }
}

@Test func decompressedLinesAreShortAndCoverEveryEventTypePreviewAndDeniedConsent() throws {
    try withTemporaryDirectory { directory in
        let summary = try LogGenerator.generate(GeneratorOptions(events: 20_000, files: 2, seed: 5), into: directory)
        let lines = try decompressedLines(summary.files)
        #expect(lines.allSatisfy { $0.count <= 1_048_576 })
        let text = String(decoding: Array(lines.joined(separator: [UInt8(ascii: "\n")])), as: UTF8.self)
        for type in ["link_click", "link_open", "click_bind", "decision", "impression", "order", "grant", "preview_link"] {
            #expect(text.contains(#""type":"\#(type)""#), "no \(type) event")
        }
        for marker in [#""isPreview":true"#, #""preview":true"#, #""consent":"denied""#,
                       #""unit":"customer""#, #""control":true"#, #""route":"store""#, #""route":"app""#] {
            #expect(text.contains(marker), "no \(marker)")
        }
    }
}

@Test func writesTheRequestedNumberOfFilesEvenlyFilled() throws {
    try withTemporaryDirectory { directory in
        let summary = try LogGenerator.generate(GeneratorOptions(events: 1_000, files: 3, seed: 6),
                                                into: directory + "/nested/out")
        #expect(summary.files.map { ($0 as NSString).lastPathComponent }
            == ["events-0001.ndjson.gz", "events-0002.ndjson.gz", "events-0003.ndjson.gz"])
        let counts = try summary.files.map { try decompressedLines([$0]).count }
        #expect(counts == [334, 333, 333])
    }
}

@Test func rejectsImpossibleOptionsWithTypedErrors() throws {
    try withTemporaryDirectory { directory in
        #expect(throws: GeneratorError.invalidEventCount(-1)) {
            try LogGenerator.generate(GeneratorOptions(events: -1), into: directory)
        }
        #expect(throws: GeneratorError.invalidFileCount(0)) {
            try LogGenerator.generate(GeneratorOptions(events: 10, files: 0), into: directory)
        }
        #expect(throws: GeneratorError.invalidBadLineShare(1.5)) {
            try LogGenerator.generate(GeneratorOptions(events: 10, badLineShare: 1.5), into: directory)
        }
    }
}

@Test func reportsAnOutputDirectoryThatCannotBeCreated() throws {
    try withTemporaryDirectory { directory in
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: GeneratorError.cannotCreateDirectory(path: file + "/out", reason: "Not a directory")) {
            try LogGenerator.generate(GeneratorOptions(events: 10), into: file + "/out")
        }
    }
}

@Test func gzipWriterRoundTripsInputLargerThanItsBuffer() throws {
    try withTemporaryDirectory { directory in
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var rng = SeededRandom(seed: 9)
        // Poorly compressible, so the compressed output spans several output buffers.
        let input = (0..<(3 * GzipFileWriter.outputBufferSize)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let path = directory + "/round-trip.gz"
        let writer = try GzipFileWriter(path: path)
        try writer.write(Array(input[..<1000]))
        try writer.write(Array(input[1000...]))
        try writer.finish()
        #expect(try gunzip(path) == input)
    }
}

@Test func jsonTextEscapesQuotesBackslashesAndControlCharacters() {
    #expect(JSONText.literal("a\"b\\c\nd\u{1}é") == Array(#""a\"b\\c\nd\u0001é""#.utf8))
    #expect(JSONText.literal("é🌸", asciiOnly: true) == Array(#""\u00e9\ud83c\udf38""#.utf8))
}

@Test func timestampsRenderLocalOffsetsAndTruncatedFractions() {
    let instant = EpochNanoseconds(CivilDate.daysSinceEpoch(year: 2026, month: 3, day: 2)) * 86_400_000_000_000
        + 23 * 3_600_000_000_000 + 123_456_789
    func rendered(_ style: TimestampStyle) -> String {
        var line = JSONLineBuilder(capacity: 64)
        style.append(instant, to: &line)
        return String(decoding: line.bytes, as: UTF8.self)
    }
    #expect(rendered(TimestampStyle(zone: .utc(lowercase: false), fractionDigits: 0, lowercaseT: false))
        == "2026-03-02T23:00:00Z")
    #expect(rendered(TimestampStyle(zone: .offset(minutes: 120), fractionDigits: 4, lowercaseT: true))
        == "2026-03-03t01:00:00.1234+02:00")
    #expect(rendered(TimestampStyle(zone: .offset(minutes: -330), fractionDigits: 9, lowercaseT: false))
        == "2026-03-02T17:30:00.123456789-05:30")
    #expect(rendered(TimestampStyle(zone: .unknownLocalOffset, fractionDigits: 1, lowercaseT: false))
        == "2026-03-02T23:00:00.1-00:00")
}

@Test func civilDateConversionsRoundTripAcrossLeapYears() {
    for days in stride(from: -800_000, through: 2_900_000, by: 997) {
        let date = CivilDate.from(daysSinceEpoch: days)
        #expect(CivilDate.daysSinceEpoch(year: date.year, month: date.month, day: date.day) == days)
    }
    #expect(CivilDate.from(daysSinceEpoch: CivilDate.daysSinceEpoch(year: 2024, month: 2, day: 29)) == (2024, 2, 29))
}

@Test func seededRandomIsTheSameOnEveryRun() {
    var rng = SeededRandom(seed: 0)
    // SplitMix64's published first outputs for seed 0.
    #expect([rng.next(), rng.next(), rng.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
}

@Test func fileNamesSortByteWiseInNumericOrder() {
    #expect(LogGenerator.fileName(index: 7, of: 12) == "events-0007.ndjson.gz")
    #expect(LogGenerator.fileName(index: 42, of: 10_000) == "events-00042.ndjson.gz")
}

@Test func testersOpenLinksOfEveryKindAndOutcomeWithEachSDKBugAndDayLongPins() throws {
    let lines = try generatedLines(events: 20_000, seed: 2026, files: 1)
    let audit = partialState(lines).joined(scope: .unit).exposureResult(configuration: nil).audit
    for kind in PreviewLinkKind.allCases {
        #expect(PreviewLinkOutcome.allCases.reduce(0) { $0 + audit.previewLinks[kind, $1] } > 0, "no \(kind.name) link")
    }
    for outcome in PreviewLinkOutcome.allCases {
        #expect(PreviewLinkKind.allCases.reduce(0) { $0 + audit.previewLinks[$1, outcome] } > 0, "no \(outcome.name) link")
    }
    // Most links are well-formed and pair.
    #expect(audit.previewLinks[.pair, .paired] * 2 > audit.previewLinks.total)
    for violation in audit.violations.links.counts { #expect(violation > 0) }
    #expect(audit.campaigns.contains { $0.previewPairings > 0 })
    // Some pins last exactly 24 hours: the longest pin that is fine.
    let dayLongPins = lines.filter { line in
        guard case .previewLink(let link)? = acceptedEvent(line), let expiry = link.pinExpiresAt else { return false }
        return expiry == Instant(seconds: link.ts.seconds + 86_400, nanoseconds: link.ts.nanoseconds)
    }
    #expect(dayLongPins.count > 5)
}

@Test func theProductionShapeAddsIgnoredSDKMetadataToGronaLinesOnly() throws {
    try withTemporaryDirectory { directory in
        let options = GeneratorOptions(events: 20_000, files: 2, seed: 5, badLineShare: 0, shape: .production)
        let summary = try LogGenerator.generate(options, into: directory + "/a")
        #expect(try readAll(summary.files) == readAll(LogGenerator.generate(options, into: directory + "/b").files))
        let lines = try decompressedLines(summary.files)
        let bytesPerLine = Double(lines.reduce(0) { $0 + $1.count + 1 }) / Double(lines.count)
        #expect((250...300).contains(bytesPerLine), "\(bytesPerLine) bytes a line")
        let metadataKeys = ["sdkVersion", "platform", "appVersion", "sessionId", "ipCountry", "placement", "channel",
                            "device", "items", "latencyMs"]
        var nested = 0
        for line in lines {
            let text = String(decoding: line, as: UTF8.self)
            let keys = metadataKeys.filter { text.contains(#""\#($0)":"#) }
            let isGrona = ["decision", "impression", "grant", "order", "preview_link"].contains { text.contains(#""type":"\#($0)""#) }
            #expect(isGrona ? (5...10).contains(keys.count) : keys.isEmpty, "\(text)")
            if keys.contains("device") || keys.contains("items") { nested += 1 }
        }
        #expect(nested > lines.count / 50)

        // The analysis ignores the metadata: every line is accepted, none rejected.
        let result = try Pipeline.run(RunOptions(inputs: [directory + "/a"], outputDirectory: nil, jobs: 2))
        #expect(result.accounting.acceptedTotal == 20_000)
    }
}

@Test func theProductionShapeHasManyMoreDistinctInstallsAndClicks() throws {
    try withTemporaryDirectory { directory in
        func distinct(_ shape: LogShape, _ pattern: String) throws -> Int {
            let summary = try LogGenerator.generate(
                GeneratorOptions(events: 40_000, files: 1, seed: 2, badLineShare: 0, shape: shape),
                into: directory + "/" + shape.rawValue)
            let regex = try NSRegularExpression(pattern: pattern)
            var values = Set<String>()
            for line in try decompressedLines(summary.files) {
                let text = String(decoding: line, as: UTF8.self)
                if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                    values.insert((text as NSString).substring(with: match.range(at: 1)))
                }
            }
            return values.count
        }
        let installs = #""installId":"([^"]+)""#
        let clicks = #""type":"link_click".*"clickId":"([^"]+)""#
        // Per 1.25M lines: about 150k installs and 240k clicks (friendly: about 50k and 280k).
        let productionInstalls = try distinct(.production, installs)
        #expect((4_200...5_400).contains(productionInstalls), "\(productionInstalls) installs")
        #expect(try distinct(.friendly, installs) * 2 < productionInstalls)
        let productionClicks = try distinct(.production, clicks)
        #expect((7_000...8_400).contains(productionClicks), "\(productionClicks) clicks")
    }
}

@Test func theHighCardinalityShapeNamesANewIDOnEveryClickOpenDecisionAndOrderLine() throws {
    try withTemporaryDirectory { directory in
        let options = GeneratorOptions(events: 20_000, files: 2, seed: 3, badLineShare: 0, shape: .highCardinality)
        let summary = try LogGenerator.generate(options, into: directory + "/a")
        #expect(try readAll(summary.files) == readAll(LogGenerator.generate(options, into: directory + "/b").files))
        #expect(LogShape(rawValue: "high-cardinality") == .highCardinality)
        // Per event type, the id field that must be new on every line, its lines and its values.
        let idFields = ["link_click": "clickId", "link_open": "openId", "decision": "installId", "order": "orderId"]
        var lines: [String: Int] = [:]
        var values: [String: Set<String>] = [:]
        for line in try decompressedLines(summary.files) {
            let text = String(decoding: line, as: UTF8.self)
            for (type, field) in idFields where text.contains(#""type":"\#(type)""#) {
                let value = try #require(text.firstRange(of: #""\#(field)":""#).map { text[$0.upperBound...].prefix { $0 != "\"" } })
                lines[type, default: 0] += 1
                values[type, default: []].insert(String(value))
            }
        }
        for type in idFields.keys {
            #expect((lines[type] ?? 0) > 200, "\(type) lines")
            #expect(values[type]?.count == lines[type], "every \(type) line names a new id")
        }
        // Production-shaped otherwise: the analysis accepts every line.
        let result = try Pipeline.run(RunOptions(inputs: [directory + "/a"], outputDirectory: nil, jobs: 2))
        #expect(result.accounting.acceptedTotal == 20_000)
    }
}
