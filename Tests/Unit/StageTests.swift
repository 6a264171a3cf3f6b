import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// The stage filters (`partial`, `merge --join N`, `render`) give the reports of `run`, however
/// the records are partitioned between shuffles.
struct StageTests {
    static var lines: [String] { get throws { try PropertyTests.lines } }

    /// Records as lines, each `KEY<TAB>VALUE`.
    func recordLines(_ state: PartialState) -> [ArraySlice<UInt8>] {
        RecordEncoder.encode(state).split(separator: 0x0A)
    }

    func decode(_ lines: [ArraySlice<UInt8>]) throws -> PartialState {
        var decoder = RecordDecoder()
        for line in lines { try decoder.read(line) }
        return decoder.state
    }

    /// The documented partition function: FNV-1a of the KEY text.
    func partition(_ line: ArraySlice<UInt8>, of count: Int) -> Int {
        let key = line[..<line.firstIndex(of: 0x09)!]
        return Int(ByteString(Array(key)).stableHash % UInt64(count))
    }

    /// Windows narrow enough to change the figures of `lines` (SPEC section 10.1).
    static let windows = AnalysisWindows(conversionHours: 1, bindDays: 1)

    @Test(arguments: [(1, AnalysisWindows()), (2, AnalysisWindows()), (7, AnalysisWindows()), (1, windows), (7, windows)])
    func shuffledStagesGiveTheReportsOfRun(partitions: Int, windows: AnalysisWindows) throws {
        let expected = partialState(try Self.lines).joined(scope: .unit, windows: windows)
        // Three "files", each its own partial state, as `partial` would write them.
        var records: [ArraySlice<UInt8>] = []
        let fileSize = try Self.lines.count / 3 + 1
        for start in stride(from: 0, to: try Self.lines.count, by: fileSize) {
            records += recordLines(partialState(Array(try Self.lines[start..<min(start + fileSize, Self.lines.count)])))
        }
        for stage in 1...3 {
            var shuffled = [[ArraySlice<UInt8>]](repeating: [], count: partitions)
            for record in records { shuffled[partition(record, of: partitions)].append(record) }
            records = []
            for part in shuffled {
                var state = try decode(part)
                switch stage {
                case 1: state.joinStage1(scope: .unit)
                case 2: state.joinStage2(windows: windows)
                default: state.joinStage3(windows: windows)
                }
                records += recordLines(state)
            }
        }
        let final = JoinedState(afterJoins: try decode(records.shuffled()))
        #expect(AttributionReport.csv(final.attributionResult()) == AttributionReport.csv(expected.attributionResult()))
        #expect(AttributionReport.json(final.attributionResult()) == AttributionReport.json(expected.attributionResult()))
        let exposure = final.exposureResult(configuration: nil)
        let expectedExposure = expected.exposureResult(configuration: nil)
        #expect(ExposureReport.csv(exposure.campaigns) == ExposureReport.csv(expectedExposure.campaigns))
        #expect(ExposureReport.json(exposure.campaigns) == ExposureReport.json(expectedExposure.campaigns))
        #expect(PreviewAuditReport.json(exposure.audit) == PreviewAuditReport.json(expectedExposure.audit))
        #expect(final.accounting == expected.accounting)
    }

    @Test func theWindowsOfTheStageTestsChangeTheirFigures() throws {
        let unlimited = partialState(try Self.lines).joined(scope: .unit)
        let windowed = partialState(try Self.lines).joined(scope: .unit, windows: Self.windows)
        #expect(windowed.attributionResult().bindsOutsideWindow > 0)
        #expect(windowed.attributionResult().totals.attributed < unlimited.attributionResult().totals.attributed)
        let converted = { (state: JoinedState) in
            state.exposureResult(configuration: nil).campaigns.flatMap(\.variants).reduce(0) { $0 + $1.convertedUnits }
        }
        #expect(converted(windowed) < converted(unlimited))
    }

    @Test func mergeIsCommutativeAndAssociativeOnRecords() throws {
        let parts = try [Array(Self.lines[0..<2000]), Array(Self.lines[2000..<4000]), Array(Self.lines[4000...])]
            .map { recordLines(partialState($0)) }
        let leftFirst = try decode(recordLines(try decode(parts[0] + parts[1])) + parts[2])
        let rightFirst = try decode(parts[2] + recordLines(try decode(parts[1] + parts[0])))
        #expect(renderedReports(leftFirst) == renderedReports(rightFirst))
        #expect(leftFirst.accounting == rightFirst.accounting)
    }

    @Test func aMalformedRecordNamesItsLine() {
        var decoder = RecordDecoder()
        #expect(throws: RecordError.self) { try decoder.read(ArraySlice(Array("[\"accounting\"]\t{\"v\":1}".utf8))) }
        var versioned = RecordDecoder()
        do {
            try versioned.read(ArraySlice(Array("[\"attribution_totals\"]\t{\"v\":1,\"counts\":[0,0,0,0]}".utf8)))
            Issue.record("a record of another format version must be refused")
        } catch {
            #expect(error.description.contains("format version"))
            #expect(error.line == 1)
        }
    }
}

extension StageTests {
    @Test func corruptedRecordsAreRefusedOrReadNeverCrash() throws {
        let valid = recordLines(partialState(Array(try Self.lines.prefix(500))))
        var random = SeededRandom(seed: 21)
        var refused = 0
        for _ in 0..<2000 {
            var line = Array(valid.randomElement(using: &random)!)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<line.count, using: &random)
                line[position] = [UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "e"), 0x09, 0xFF]
                    .randomElement(using: &random)!
            }
            var decoder = RecordDecoder()
            do { try decoder.read(ArraySlice(line)) } catch { refused += 1 }
        }
        #expect(refused > 0)
    }
}
