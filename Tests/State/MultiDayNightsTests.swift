import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// `generate --days` logs run the way cron runs them — one day's file a night, in day order, on
/// one state — give the reports of one run over every day, although their journeys cross
/// midnight (late opens, bindings and orders, late-starting testers, late deliveries).
@Suite(.serialized)
struct MultiDayNightsTests {
    @Test(arguments: [("unit", false), ("event", true)])
    func oneDayANightAddsUpToOneRun(scope: String, withConfiguration: Bool) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try LogGenerator.generate(GeneratorOptions(events: 24_000, seed: 21, days: 6),
                                              into: directory + "/logs").files
        var options = ["--preview-scope", scope, "--max-reject-rate", "1"]
        if withConfiguration { options += ["--config", packageRoot + "/SampleData/grona-config.json"] }
        let single = try execute(["run", "--out", directory + "/single"] + options + files)
        #expect(single.status == 0, "\(single.stderr)")

        var attributedNightByNight = 0
        for (night, file) in files.enumerated() {
            let result = try execute(["run", "--state", directory + "/state.db", "--out", directory + "/night-\(night)"]
                + options + [file])
            #expect(result.status == 0, "night \(night): \(result.stderr)")
            // The same night without the state sees only its own lines.
            let alone = try execute(["run", "--out", directory + "/alone-\(night)"] + options + [file])
            #expect(alone.status == 0, "night \(night) alone: \(alone.stderr)")
            attributedNightByNight += try Self.attributedClicks(directory + "/alone-\(night)")
        }
        // Journeys cross midnight: nights added up without a state lose many attributions.
        let attributed = try Self.attributedClicks(directory + "/single")
        #expect(attributedNightByNight * 100 < attributed * 95, "\(attributedNightByNight) of \(attributed)")
        let expected = try StateTests.comparable(directory + "/single")
        let actual = try StateTests.comparable(directory + "/night-\(files.count - 1)")
        for key in expected.keys.sorted() {
            #expect(actual[key] == expected[key], "\(key) differs after \(files.count) nights")
        }
    }

    /// `totals.attributed` of a run's `attribution.json`.
    static func attributedClicks(_ directory: String) throws -> Int {
        let report = try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/attribution.json")))
        let totals = (report as? [String: Any])?["totals"] as? [String: Any]
        return try #require(totals?["attributed"] as? Int)
    }
}
