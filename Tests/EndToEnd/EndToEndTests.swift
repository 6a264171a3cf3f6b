import Foundation
import Testing
@testable import GroveReport

/// The built executable, end to end: exit codes, stdin, outputs, usage messages.
@Suite(.serialized)
struct EndToEndTests {
    static let good = [
        #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c1","appKey":"k","slug":"s","route":"app","utm_campaign":"spring"}"#,
        #"{"type":"click_bind","ts":"2026-03-01T10:05:00Z","clickId":"c1","verifiedEmail":"Alice@Example.com"}"#,
        #"{"type":"decision","ts":"2026-03-01T10:00:00Z","installId":"i1","campaignId":"banner","variantId":"A","isPreview":false}"#,
    ]

    @Test func runReadsStdinAndWritesEveryReport() throws {
        let out = try temporaryDirectory()
        let result = try execute(["run", "-", "--out", out], stdin: ndjson(Self.good))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        let reports = try reportContents(out)
        #expect(reports["attribution.csv"] == "campaign,clicks,store_clicks,app_clicks,opens,open_retries,open_conflicts,attributed,bind_retries,bind_conflicts,attribution_rate\nspring,1,0,1,0,0,0,1,0,0,1.0\n")
        #expect(reports["rejects.ndjson"] == "")
        let summary = try #require(JSONValue.parse(try readFile(out + "/summary.json")))
        #expect(summary["lines"] == .number(3))
        #expect(summary["files"] == .number(1))
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == reportNames.sorted())
    }

    @Test func rejectsAreListedWithFileLineOffsetAndReasonButNoRawContentByDefault() throws {
        let directory = try temporaryDirectory()
        let lines = Self.good + [#"{"type":"click_bind","ts":"2026-03-01T10:05:00Z","clickId":"c2","verifiedEmail":"secret.person@example.com","userId":"u-42"}"#, "not json"]
        try writeFile(directory + "/logs/a.ndjson", ndjson(lines))
        let result = try execute(["run", "logs", "--out", "out", "--max-reject-rate", "1"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let rejects = String(decoding: try readFile(directory + "/out/rejects.ndjson"), as: UTF8.self)
        let offset3 = ndjson(Array(lines.prefix(3))).count
        let offset4 = ndjson(Array(lines.prefix(4))).count
        #expect(rejects == """
            {"file":"logs/a.ndjson","line":4,"offset":\(offset3),"reason":"disallowed_field:userId"}
            {"file":"logs/a.ndjson","line":5,"offset":\(offset4),"reason":"invalid_json"}

            """)

        let raw = try execute(["run", "logs", "--out", "raw", "--max-reject-rate", "1", "--rejects-raw"], in: directory)
        #expect(raw.status == 0)
        for name in reportNames {
            let text = String(decoding: try readFile(directory + "/raw/" + name), as: UTF8.self)
            #expect(!text.contains("secret.person"), "\(name) shows an email")
            #expect(!text.contains("u-42"), "\(name) shows a disallowed value")
            #expect(!text.lowercased().contains("alice@example.com"), "\(name) shows an email")
        }
        #expect(String(decoding: try readFile(directory + "/raw/rejects.ndjson"), as: UTF8.self).contains(#""raw":"not json""#))
    }

    @Test func tooManyRejectsExitOne() throws {
        let out = try temporaryDirectory()
        let result = try execute(["run", "-", "--out", out], stdin: ndjson(Self.good + ["oops"]))
        #expect(result.status == 1)
        #expect(result.stderr.contains("--max-reject-rate"))
        let relaxed = try execute(["run", "-", "--out", out, "--max-reject-rate=0.5"], stdin: ndjson(Self.good + ["oops"]))
        #expect(relaxed.status == 0)
    }

    @Test func aTruncatedGzipIsAnInputErrorButItsCompleteLinesCount() throws {
        let directory = try temporaryDirectory()
        let text = ndjson((0..<3000).map { #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c\#($0)","appKey":"k","slug":"s","route":"app"}"# })
        let compressed = try gzip(text)
        try writeFile(directory + "/cut.gz", Array(compressed.prefix(compressed.count / 2)))
        let result = try execute(["run", directory + "/cut.gz", "--out", directory + "/out"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("truncated"))
        let summary = try #require(JSONValue.parse(try readFile(directory + "/out/summary.json")))
        guard case .array(let errors)? = summary["input_errors"], let first = errors.first else {
            Issue.record("expected an input error")
            return
        }
        #expect(first["file"] == .string(directory + "/cut.gz"))
        #expect(first["offset"] == .number(Double(compressed.count / 2)))
        guard case .number(let lines)? = summary["lines"] else {
            Issue.record("summary.json has no number of lines")
            return
        }
        #expect(lines > 0 && lines < 3000)
    }

    @Test func usageMistakesExitTwoWithOneLine() throws {
        for arguments in [["frobnicate"], ["run", "--jobs", "0"], ["run", "--preview-scope", "all"], ["run", "--bogus"],
                          ["run", "--config", "/nonexistent.json"], ["generate"], ["run", "--out"]] {
            let result = try execute(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("--help"), "\(arguments)")
        }
    }

    @Test func aMalformedConfigurationIsAUsageError() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/dup.json", Array(#"{"campaigns":[{"id":"a"},{"id":"a"}]}"#.utf8))
        let result = try execute(["run", "-", "--config", directory + "/dup.json", "--out", directory], stdin: [])
        #expect(result.status == 2)
        #expect(result.stderr.contains("appears twice"))
    }

    /// Every way of asking for help prints the golden text of its topic (see `HelpGoldenTests`).
    @Test func helpIsPrintedForTheToolAndEachCommand() throws {
        for (arguments, topic) in [
            (["--help"], "tool"), (["-h"], "tool"), (["help"], "tool"), ([], "tool"), (["run", "--help"], "run"),
            (["validate", "-h"], "validate"), (["generate", "--help"], "generate"), (["help", "run"], "run"),
            (["merge", "--join", "2", "--help"], "merge"),
        ] {
            let result = try execute(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout == (try goldenHelp(topic)), "\(arguments)")
            #expect(result.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test func validateExitsThreeOnViolationsAndZeroWithout() throws {
        let clean = try execute(["validate", "-"], stdin: ndjson(Self.good))
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout.contains("No violations."))
        let previewGrant = #"{"type":"grant","ts":"2026-03-01T10:00:00Z","installId":"t","campaignId":"banner","variantId":"A","offerId":"f","preview":true}"#
        let dirty = try execute(["validate", "-"], stdin: ndjson(Self.good + [previewGrant]))
        #expect(dirty.status == 3)
        #expect(dirty.stdout.contains("preview_grant 1"))
        // Input problems (1) win over violations (3).
        let both = try execute(["validate", "-"], stdin: ndjson([previewGrant, "bad line"]))
        #expect(both.status == 1)
    }

    @Test func validateUsesTheConfigurationForDisabledCampaigns() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/config.json", Array(#"{"campaigns":[{"id":"banner","enabled":false}]}"#.utf8))
        let result = try execute(["validate", "-", "--config", directory + "/config.json"], stdin: ndjson(Self.good))
        #expect(result.status == 3)
        #expect(result.stdout.contains("decision_on_disabled_campaign 1"))
    }
}

/// The stage filters run as separate processes, as an engine calls them.
@Suite(.serialized)
struct StageCommandTests {
    /// With SPEC section 10's options too: each goes to the stage that applies it.
    @Test(arguments: [[], ["--conversion-window", "1", "--bind-window", "1", "--sequential-tuning", "100"]])
    func stagesRunAsProcessesGiveTheReportsOfRun(options: [String]) throws {
        let directory = try temporaryDirectory()
        let input = ndjson(EndToEndTests.good + ["broken line"] + (try PropertyTests.lines.prefix(3_000)))
        try writeFile(directory + "/in.ndjson", input)
        let run = try execute(["run", directory + "/in.ndjson", "--out", directory + "/run", "--max-reject-rate", "1"] + options)
        #expect(run.status == 0)
        var records = try execute(["partial", "--name", directory + "/in.ndjson"], stdin: input)
        #expect(records.status == 0 && records.stderr.isEmpty)
        let stageOptions = ["1": [], "2": Array(options.prefix(4).suffix(2)), "3": Array(options.prefix(2))]
        for join in ["1", "2", "3"] {
            records = try execute(["merge", "--join", join] + stageOptions[join, default: []], stdin: Array(records.stdout.utf8))
            #expect(records.status == 0, "\(records.stderr)")
        }
        let render = try execute(
            ["render", "--out", directory + "/stages", "--max-reject-rate", "1"] + Array(options.dropFirst(4)), stdin: Array(records.stdout.utf8))
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try reportContents(directory + "/run") == reportContents(directory + "/stages"))
    }

    @Test func aFailingStageWritesNothingToStdoutAndExitsNonZero() throws {
        let result = try execute(["merge", "--join", "2"], stdin: Array("[\"click\",\"c\"]\tnot json\n".utf8))
        // Records that cannot be read are damaged input: 1, as for a corrupt log.
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "grove-report merge: record on input line 1: not KEY<TAB>VALUE with JSON on both sides\n")
    }
}
