import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// The committed `Reports/` are exactly what `run` writes for the committed `SampleData/`.
@Suite(.serialized)
struct SampleReportsTests {
    @Test func theDefaultRunReproducesTheCommittedReports() throws {
        let out = try temporaryDirectory()
        let result = try execute(["run", "--out", out], in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try reportContents(packageRoot + "/Reports")
        let actual = try reportContents(out)
        for name in reportNames {
            #expect(actual[name] == expected[name], "\(name) differs from Reports/\(name): regenerate with 'swift run -c release grove-report run'")
        }
    }

    @Test func theSampleDataIsWhatTheGeneratorWrites() throws {
        let out = try temporaryDirectory()
        let summary = try LogGenerator.generate(GeneratorOptions(events: 20_000, files: 4, seed: 2026, badLineShare: 0.002), into: out)
        for file in summary.files {
            let name = (file as NSString).lastPathComponent
            #expect(try readFile(file) == readFile(packageRoot + "/SampleData/" + name), "\(name)")
        }
    }
}
