import Foundation
import Testing
@testable import GroveReport

/// `--max-campaigns` on the built executable: the reports and `summary.json` of a folded run,
/// bad values as usage errors, and the same bytes from the stage filters and from `--state` nights.
@Suite(.serialized)
struct CampaignFoldEndToEndTests {
    static let lines = CampaignFoldTests.attributionLines + CampaignFoldTests.exposureLines

    static func summary(_ directory: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/summary.json"))) as? [String: Any] ?? [:]
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try readFile(path), as: UTF8.self)
    }

    @Test func aFoldedRunWritesTheSumsAndCountsTheFoldedCampaigns() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/in.ndjson", ndjson(Self.lines))
        let result = try execute(["run", directory + "/in.ndjson", "--out", directory + "/out", "--max-campaigns", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.text(directory + "/out/attribution.csv") == """
            campaign,clicks,store_clicks,app_clicks,opens,open_retries,open_conflicts,attributed,bind_retries,bind_conflicts,attribution_rate
            (other campaigns),3,2,1,1,1,0,2,0,1,0.6666666666666666
            alpha,2,1,1,1,0,0,1,0,0,0.5
            beta,3,0,3,1,0,0,0,0,0,0.0

            """)
        let exposure = try Self.text(directory + "/out/exposure.csv").split(separator: "\n")
        #expect(exposure.count == 6)
        #expect(exposure[1] == "(other campaigns),(all),false,5,2,0.4,2,400,80.0,1,,,,,,,,,,,,,")
        #expect(exposure[3].hasPrefix("e1,B,false,2,1,0.5,1,100,50.0,0,0.5,"))
        let summary = try Self.summary(directory + "/out")
        #expect(summary["folded_campaigns"] as? [String: Int] == ["attribution": 2, "exposure": 2])
        let audit = try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/out/preview_audit.json"))) as? [String: Any]
        let campaigns = (audit?["campaigns"] as? [[String: Any]])?.compactMap { $0["campaign"] as? String }
        #expect(campaigns == ["(other campaigns)", "e2", "e4"])
        // Without the option nothing is folded: the default is 10,000.
        let unfolded = try execute(["run", directory + "/in.ndjson", "--out", directory + "/all"])
        #expect(unfolded.status == 0)
        #expect(try Self.summary(directory + "/all")["folded_campaigns"] as? [String: Int] == ["attribution": 0, "exposure": 0])
        #expect(try Self.text(directory + "/all/attribution.csv").split(separator: "\n").count == 5)
        // validate folds its audit the same way and says so.
        let validate = try execute(["validate", directory + "/in.ndjson", "--max-campaigns", "2"])
        #expect(validate.status == 3)
        #expect(validate.stdout.contains(#"  campaigns: 4 (2 named, 2 summed as "(other campaigns)": --max-campaigns)"#))
        #expect(validate.stdout.contains(#"    "(other campaigns)": preview installs 1, pairings 0, contaminated events 0; ok"#))
    }

    /// Issue 31, row 7, at a size a test can afford: names from the logs past the default of
    /// 10,000 are folded in every report, and the page stays small (Benchmarks/campaigns.sh runs
    /// the 500,000 campaigns of the issue and measures memory, output size and the browser).
    @Test func campaignsPastTheDefaultAreFoldedInEveryReportAndThePage() throws {
        let directory = try temporaryDirectory()
        var lines: [String] = []
        for index in 0..<12_000 {
            lines.append(AttributionTests.click("k\(index)", "2026-03-01T10:00:00Z", campaign: "utm-\(index)"))
            lines.append(ExposureTests.decision("i\(index)", "exp-\(index)", "A", preview: index % 100 == 0))
        }
        try writeFile(directory + "/many.ndjson.gz", try gzip(ndjson(lines)))
        let result = try execute(["run", directory + "/many.ndjson.gz", "--out", directory + "/out"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.text(directory + "/out/attribution.csv").split(separator: "\n").count == 1 + 10_001)
        #expect(try Self.text(directory + "/out/exposure.csv").split(separator: "\n").count == 1 + 10_001)
        let audit = try JSONSerialization.jsonObject(with: Data(try readFile(directory + "/out/preview_audit.json"))) as? [String: Any]
        #expect((audit?["campaigns"] as? [Any])?.count == 10_001)
        // 120 campaigns have only a preview decision: no units, so not in exposure.
        #expect(try Self.summary(directory + "/out")["folded_campaigns"] as? [String: Int] == ["attribution": 2_000, "exposure": 1_880])
        let page = try Self.text(directory + "/out/report.html")
        #expect(page.components(separatedBy: "<details").count - 1 == 2 * 1_001)
        #expect(page.utf8.count < 6_000_000, "\(page.utf8.count) bytes")
        // The audit ranks its preview campaigns first; they are all named.
        #expect(page.contains("<td class=\"name\">exp-11900</td>"))
    }

    @Test func aBadMaximumIsAUsageErrorOfOneLine() throws {
        for value in ["0", "-1", "x", "1.5", "", "99999999999999999999"] {
            for command in [["run", "-"], ["validate", "-"], ["render", "--out", "/nonexistent/out"], ["run", "--state", "/nonexistent/s.db"]] {
                let arguments = command + ["--max-campaigns", value]
                let result = try execute(arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("--max-campaigns must be a whole number of at least 1, not '\(value)'"), "\(arguments)")
            }
        }
        let one = try execute(["validate", "-", "--max-campaigns=1"], stdin: ndjson(Self.lines))
        #expect(one.status == 3, "N = 1 is allowed: \(one.stderr)")
    }

    @Test func theStageFiltersWriteTheBytesOfAFoldedRun() throws {
        let directory = try temporaryDirectory()
        let generated = try generatedLines(events: 3000, seed: 7)
        for (name, lines, maximum) in [("fixture", Self.lines, "2"), ("generated", generated, "3")] {
            let input = ndjson(lines)
            try writeFile(directory + "/\(name).ndjson", input)
            let options = ["--max-campaigns", maximum, "--max-reject-rate", "1"]
            let run = try execute(["run", directory + "/\(name).ndjson", "--out", directory + "/\(name)-run"] + options)
            #expect(run.status == 0, "\(run.stderr)")
            var records = try execute(["partial", "--name", directory + "/\(name).ndjson"], stdin: input)
            for join in ["1", "2", "3"] {
                records = try execute(["merge", "--join", join], stdin: Array(records.stdout.utf8))
                #expect(records.status == 0, "\(records.stderr)")
            }
            let render = try execute(["render", "--out", directory + "/\(name)-stages"] + options, stdin: Array(records.stdout.utf8))
            #expect(render.status == 0, "\(render.stderr)")
            #expect(try reportContents(directory + "/\(name)-run") == reportContents(directory + "/\(name)-stages"), "\(name)")
            let folded = try Self.summary(directory + "/\(name)-stages")["folded_campaigns"] as? [String: Int]
            #expect((folded?["attribution"] ?? 0) > 0 && (folded?["exposure"] ?? 0) > 0, "\(name) folds both analyses")
        }
    }

    @Test func foldedNightsOnAStateWriteTheBytesOfOneFoldedRun() throws {
        let directory = try temporaryDirectory()
        let files = try StateTests.splitLogs(into: directory, files: 4, seed: 13)
        let options = ["--max-campaigns", "3", "--max-reject-rate", "1"]
        let single = try execute(["run", "--out", directory + "/single"] + options + files)
        #expect(single.status == 0, "\(single.stderr)")
        for (night, file) in files.enumerated() {
            let result = try execute(["run", "--state", directory + "/state.db", "--out", directory + "/night-\(night)"] + options + [file])
            #expect(result.status == 0, "night \(night): \(result.stderr)")
        }
        let last = directory + "/night-\(files.count - 1)"
        #expect(try StateTests.comparable(last) == StateTests.comparable(directory + "/single"))
        let folded = try Self.summary(last)["folded_campaigns"] as? [String: Int]
        #expect(try folded == Self.summary(directory + "/single")["folded_campaigns"] as? [String: Int])
        #expect((folded?["attribution"] ?? 0) > 0 && (folded?["exposure"] ?? 0) > 0)
        // Another maximum on the same state: the reports follow the run's option, like --config.
        let wider = try execute(["run", "--state", directory + "/state.db", "--out", directory + "/wider", "--max-reject-rate", "1"])
        let unfolded = try execute(["run", "--out", directory + "/unfolded", "--max-reject-rate", "1"] + files)
        #expect(wider.status == 0 && unfolded.status == 0)
        #expect(try StateTests.comparable(directory + "/wider") == StateTests.comparable(directory + "/unfolded"))
    }

    @Test func changesListACampaignThatMovesIntoTheFold() throws {
        let directory = try temporaryDirectory()
        let night1 = Array(CampaignFoldTests.attributionLines.prefix(5))   // alpha 2 clicks, beta 3
        let night2 = (1...4).map { AttributionTests.click("g\($0)", "2026-03-02T10:00:00Z", campaign: "gamma") }
            + [AttributionTests.bind("k1", "2026-03-02T10:05:00Z", "a@b.co")]
        try writeFile(directory + "/n1.ndjson", ndjson(night1))
        try writeFile(directory + "/n2.ndjson", ndjson(night2))
        let state = directory + "/state.db"
        for (night, file) in ["n1", "n2"].enumerated() {
            let result = try execute(["run", "--state", state, "--out", directory + "/night-\(night)", "--max-campaigns", "2", directory + "/\(file).ndjson"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // gamma (4 clicks) and beta (3) are kept; alpha, with its new attributed click, is summed.
        func rows(_ campaign: String, _ values: [String], new: Bool) -> String {
            zip(AttributionReport.header.dropFirst(), values).map { column, value in
                "attribution,\(campaign),,\(column),\(new ? "" : value),\(new ? value : "")\n"
            }.joined()
        }
        #expect(try Self.text(directory + "/night-1/changes.csv") == "report,campaign,variant,column,previous,current\n"
            + rows("(other campaigns)", ["2", "1", "1", "0", "0", "0", "1", "0", "0", "0.5"], new: true)
            + rows("alpha", ["2", "1", "1", "0", "0", "0", "0", "0", "0", "0.0"], new: false)
            + rows("gamma", ["4", "0", "4", "0", "0", "0", "0", "0", "0", "0.0"], new: true))
        #expect(try Self.summary(directory + "/night-1")["folded_campaigns"] as? [String: Int] == ["attribution": 1, "exposure": 0])
    }
}
