import Foundation
import Testing
@testable import GroveReport

/// SPEC section 10 on a state: nights with windows add up to one run with the same windows, and
/// a change of windows or of preview scope between nights recomputes the stored results from the
/// stored records.
@Suite(.serialized)
struct StateWindowTests {
    static let windows = ["--conversion-window", "1", "--bind-window", "1"]

    /// Runs `nights` (lists of inputs) on one state with the options of each night; returns the
    /// last night's output directory and every night's stderr.
    private func nights(_ directory: String, _ nights: [([String], [String])]) throws -> (String, [String]) {
        var stderr: [String] = []
        for (number, (options, inputs)) in nights.enumerated() {
            let out = directory + "/night-\(number)"
            let result = try execute(["run", "--state", directory + "/state.db", "--out", out, "--max-reject-rate", "1"] + options + inputs)
            #expect(result.status == 0, "night \(number): \(result.stderr)")
            stderr.append(result.stderr)
        }
        return (directory + "/night-\(nights.count - 1)", stderr)
    }

    private func single(_ directory: String, _ options: [String], _ files: [String]) throws -> [String: String] {
        let result = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + options + files)
        #expect(result.status == 0, "\(result.stderr)")
        return try StateTests.comparable(directory + "/single")
    }

    @Test func nightsWithWindowsAddUpToOneRunWithThem() throws {
        let directory = try temporaryDirectory()
        let files = try StateTests.splitLogs(into: directory, files: 4, seed: 11)
        let expected = try single(directory, Self.windows, files)
        let (last, stderr) = try nights(directory, [(Self.windows, Array(files[0..<2])), (Self.windows, [files[2]]), (Self.windows, [files[3]])])
        #expect(try StateTests.comparable(last) == expected)
        #expect(stderr.allSatisfy { !$0.contains("recomputed") })
        // The windows change the figures of these logs.
        let unlimited = try execute(["run", "--out", directory + "/unlimited", "--max-reject-rate", "1"] + files)
        #expect(unlimited.status == 0)
        #expect(try StateTests.comparable(directory + "/unlimited")["attribution.csv"] != expected["attribution.csv"])
        #expect(try StateTests.comparable(directory + "/unlimited")["exposure.csv"] != expected["exposure.csv"])
    }

    @Test func aChangeOfWindowsBetweenNightsRecomputesFromTheRecords() throws {
        let directory = try temporaryDirectory()
        let files = try StateTests.splitLogs(into: directory, files: 4, seed: 12)
        let (_, stderr) = try nights(directory, [
            ([], Array(files[0..<2])), (Self.windows, [files[2]]), (["--bind-window", "3"], [files[3]]), ([], []),
        ])
        #expect(!stderr[0].contains("recomputed"))
        #expect(stderr[1].contains("recomputed") && stderr[1].contains("windows changed"))
        #expect(stderr[2].contains("recomputed") && stderr[3].contains("recomputed"))
        #expect(stderr[1].split(separator: "\n").count == 1)
        #expect(try StateTests.comparable(directory + "/night-1") == (try single(directory + "/one", Self.windows, Array(files[0..<3]))))
        #expect(try StateTests.comparable(directory + "/night-2") == (try single(directory + "/two", ["--bind-window", "3"], files)))
        #expect(try StateTests.comparable(directory + "/night-3") == (try single(directory + "/three", [], files)))
    }

    /// The state keeps the results of the scope its last run reported: a night under the other
    /// scope recomputes them from the records, and a night without inputs reports it too.
    @Test func aChangeOfPreviewScopeBetweenNightsRecomputesFromTheRecords() throws {
        let directory = try temporaryDirectory()
        let files = try StateTests.splitLogs(into: directory, files: 4, seed: 14)
        let event = ["--preview-scope", "event"]
        let (_, stderr) = try nights(directory, [
            ([], Array(files[0..<2])), (event, [files[2]]), (event, [files[3]]), ([], []),
        ])
        #expect(!stderr[0].contains("recomputed") && !stderr[2].contains("recomputed"))
        #expect(stderr[1].contains("recomputed") && stderr[1].contains("preview scope changed (unit before, event now)"))
        #expect(stderr[3].contains("recomputed") && stderr[3].contains("preview scope changed (event before, unit now)"))
        #expect(try StateTests.comparable(directory + "/night-1") == (try single(directory + "/one", event, Array(files[0..<3]))))
        #expect(try StateTests.comparable(directory + "/night-2") == (try single(directory + "/two", event, files)))
        #expect(try StateTests.comparable(directory + "/night-3") == (try single(directory + "/three", [], files)))
        // The scopes differ on these logs, so the recompute is what made night 3 right.
        #expect(try StateTests.comparable(directory + "/night-2")["exposure.csv"] != StateTests.comparable(directory + "/night-3")["exposure.csv"])
    }

    @Test func theThreadCountChangesNoByteWithWindows() throws {
        let directory = try temporaryDirectory()
        let files = try StateTests.splitLogs(into: directory, files: 3, seed: 13)
        var outputs: [[String: String]] = []
        for jobs in ["1", "2"] {
            let result = try execute(["run", "--out", directory + "/jobs-\(jobs)", "--max-reject-rate", "1", "--jobs", jobs] + Self.windows + files)
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try reportContents(directory + "/jobs-\(jobs)"))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func windowOptionsAreValidatedAsUsageErrors() throws {
        for bad in [["--conversion-window", "0"], ["--conversion-window", "87601"], ["--conversion-window", "1.5"],
                    ["--bind-window", "-1"], ["--bind-window", "3651"], ["--bind-window", "x"], ["--sequential-tuning", "0"]] {
            for command in ["run", "validate"] {
                let result = try execute([command, "--out", try temporaryDirectory()] + bad + [packageRoot + "/SampleData"])
                #expect(result.status == 2, "\(command) \(bad)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            }
        }
        let merge = try execute(["merge", "--join", "2", "--bind-window", "0"])
        #expect(merge.status == 2)
    }
}
