import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import GroveReport

/// `validate --junit FILE` and `validate --github` (docs/AUDIT.md, validate), end to end on the built binary.
@Suite(.serialized)
struct CIFormatTests {
    static func grant(_ campaign: String, install: String = "t") -> String {
        #"{"type":"grant","ts":"2026-03-01T10:00:00Z","installId":"\#(install)","campaignId":"\#(campaign)","variantId":"A","offerId":"f","preview":true}"#
    }

    /// A malformed link cleared: invalid_link_accepted with no campaign to count under.
    static let clearedMalformedLink = PreviewLinkTests.link(
        "i9", url: PreviewLinkTests.malformedURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil)

    @Test func theJUnitFileParsesAndFailsExactlyTheViolatingCases() throws {
        let directory = try temporaryDirectory()
        let lines = [
            ExposureTests.decision("i1", "c", "A"),
            PreviewLinkTests.link("i1", campaign: "c", pin: "2026-03-02T10:00:00.000000001Z"),
            Self.grant(#"<b&\"'>"#),
            Self.clearedMalformedLink,
        ]
        let result = try execute(["validate", "-", "--junit", directory + "/junit.xml"], stdin: ndjson(lines))
        #expect(result.status == 3, "\(result.stderr)")
        let reader = try #require(JUnitReader.read(try readFile(directory + "/junit.xml")))
        #expect(reader.suites.count == 1)
        #expect(reader.suites.first?["name"] == "preview-audit")
        #expect(reader.suites.first?["tests"] == "19")
        #expect(reader.suites.first?["failures"] == "2")
        // Two campaigns × nine violations, then the leak check; campaigns in byte-wise order.
        #expect(reader.cases.count == 19)
        #expect(reader.cases.map(\.className) == Array(repeating: #"<b&"'>"#, count: 9) + Array(repeating: "c", count: 9) + ["(all)"])
        #expect(reader.cases.prefix(9).map(\.name) == AuditViolations.names)
        #expect(reader.cases.dropFirst(9).prefix(9).map(\.name) == AuditViolations.names)
        #expect(reader.cases.last == JUnitReader.TestCase(className: "(all)", name: "leak_check"))
        #expect(reader.cases.filter { $0.failure != nil } == [
            JUnitReader.TestCase(className: #"<b&"'>"#, name: "preview_grant", failure: "1 events"),
            JUnitReader.TestCase(className: "c", name: "pin_too_long", failure: "1 events"),
        ])
    }

    @Test func aCleanAuditWritesOnlyPassingCases() throws {
        let directory = try temporaryDirectory()
        let result = try execute(
            ["validate", "-", "--junit", directory + "/junit.xml"], stdin: ndjson([ExposureTests.decision("i1", "c", "A")]))
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try #require(JUnitReader.read(try readFile(directory + "/junit.xml")))
        #expect(reader.suites.first?["failures"] == "0")
        #expect(reader.cases.count == 10)
        #expect(reader.cases.allSatisfy { $0.failure == nil })
    }

    @Test func aFailedLeakCheckFailsItsCase() throws {
        let audit = PreviewAudit(
            campaigns: [], previewTotals: [0, 0, 0, 0], consentDeniedTotals: [0, 0, 0, 0], previewLinks: PreviewLinkCounts(),
            violations: AuditViolations(), leakCheck: 2)
        let reader = try #require(JUnitReader.read(JUnitReport.xml(audit)))
        #expect(reader.cases == [JUnitReader.TestCase(className: "(all)", name: "leak_check", failure: "2 events")])
        #expect(reader.suites.first?["failures"] == "1")
        #expect(GitHubWorkflowCommands.errors(audit)
            == "::error title=leak_check::leak_check: 2 preview or consent-denied events reached the analysis\n")
    }

    @Test func xmlEscapingKeepsEveryNameReadable() throws {
        #expect(JUnitReport.escaped(#"a<b>&"c'"#) == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(JUnitReport.escaped("tab\tline\ncr\r") == "tab&#9;line&#10;cr&#13;")
        // XML 1.0 cannot carry other control characters at all, not even as references.
        #expect(JUnitReport.escaped("bell\u{7}") == "bell\u{FFFD}")
        var campaign = AuditCampaign(campaign: ByteString("x\u{1}<y>\n"))
        campaign.violations.previewGrant = 1
        let audit = PreviewAudit(
            campaigns: [campaign], previewTotals: [0, 0, 0, 1], consentDeniedTotals: [0, 0, 0, 0],
            previewLinks: PreviewLinkCounts(), violations: campaign.violations, leakCheck: 0)
        let reader = try #require(JUnitReader.read(JUnitReport.xml(audit)))
        #expect(reader.cases.first == JUnitReader.TestCase(className: "x\u{FFFD}<y>\n", name: "preview_grant", failure: "1 events"))
    }

    @Test func workflowCommandsEscapeDataAndPropertiesAsGitHubRequires() {
        #expect(GitHubWorkflowCommands.escapedData("50% a:b,c\r\nd") == "50%25 a:b,c%0D%0Ad")
        #expect(GitHubWorkflowCommands.escapedProperty("50% a:b,c\r\nd") == "50%25 a%3Ab%2Cc%0D%0Ad")
        #expect(GitHubWorkflowCommands.escapedProperty("%3A") == "%253A")
    }

    @Test func githubPrintsOneErrorPerViolationNameWithItsCampaigns() throws {
        let lines = [Self.grant("50%off"), Self.grant("line\\r\\nbreak"), Self.grant("a:b,c"), Self.grant("a:b,c", install: "u"),
                     Self.clearedMalformedLink]
        let result = try execute(["validate", "-", "--github"], stdin: ndjson(lines), environment: ["GITHUB_STEP_SUMMARY": nil])
        #expect(result.status == 3, "\(result.stderr)")
        let commands = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("::") }
        #expect(commands == [
            "::error title=preview_grant::preview_grant: 4 events: 50%25off (1), a:b,c (2), line%0D%0Abreak (1)",
            "::error title=invalid_link_accepted::invalid_link_accepted: 1 events: no campaign (1)",
        ])
        // The audit for people is still printed.
        #expect(result.stdout.hasPrefix("Preview audit\n"))
    }

    @Test func githubPrintsNoErrorWithoutViolations() throws {
        let result = try execute(
            ["validate", "-", "--github"], stdin: ndjson([ExposureTests.decision("i1", "c", "A")]),
            environment: ["GITHUB_STEP_SUMMARY": nil])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("::"))
    }

    @Test func theStepSummaryIsAppendedNotOverwritten() throws {
        let directory = try temporaryDirectory()
        let summary = directory + "/step-summary.md"
        try writeFile(summary, Array("# Earlier step\n\nkept\n".utf8))
        let lines = [Self.grant("a|b"), Self.grant("c"), Self.clearedMalformedLink]
        for _ in 0..<2 {
            let result = try execute(["validate", "-", "--github"], stdin: ndjson(lines), environment: ["GITHUB_STEP_SUMMARY": summary])
            #expect(result.status == 3, "\(result.stderr)")
        }
        let text = String(decoding: try readFile(summary), as: UTF8.self)
        #expect(text.hasPrefix("# Earlier step\n\nkept\n"))
        let table = """

            ### grove-report preview audit

            | violation | campaign | events |
            | --- | --- | ---: |
            | preview_grant | a\\|b | 1 |
            | preview_grant | c | 1 |
            | invalid_link_accepted | (no campaign) | 1 |

            Leak check: 0


            """
        #expect(text == "# Earlier step\n\nkept\n" + table + table)

        // Without --github the summary is not touched.
        let plain = try execute(["validate", "-"], stdin: ndjson(lines), environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(plain.status == 3)
        #expect(String(decoding: try readFile(summary), as: UTF8.self) == text)
    }

    @Test func ciOptionsBelongToValidateOnly() throws {
        for arguments in [["run", "-", "--github"], ["run", "-", "--junit", "x.xml"], ["validate", "-", "--junit"],
                          ["validate", "-", "--github=yes"], ["validate", "-", "--junit="],
                          ["validate", "-", "--junit", "a.xml", "--junit=b.xml"]] {
            let result = try execute(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        // --junit=FILE works too, and after `--` the words are inputs.
        let directory = try temporaryDirectory()
        let result = try execute(
            ["validate", "--junit=" + directory + "/j.xml", "--", "-"], stdin: ndjson([ExposureTests.decision("i1", "c", "A")]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(JUnitReader.read(try readFile(directory + "/j.xml"))?.cases.count == 10)
    }

    @Test func anUnwritableJUnitFileExits74() throws {
        let result = try execute(
            ["validate", "-", "--junit", "/nonexistent-directory/junit.xml"], stdin: ndjson([ExposureTests.decision("i1", "c", "A")]))
        #expect(result.status == 74)
        #expect(result.stderr.contains("/nonexistent-directory/junit.xml"))
    }
}

@Test func theAuditForPeopleKeepsEachCampaignOnItsLine() {
    #expect(PreviewAuditReport.printable(ByteString("a\nNo violations.\u{7F}")) == #""a\u000aNo violations.\u007f""#)
    #expect(PreviewAuditReport.printable(ByteString("spring-banner é")) == #""spring-banner é""#)
    #expect(PreviewAuditReport.printable(ByteString(#"say "hi" \ bye"#)) == #""say \"hi\" \\ bye""#)
    // Nothing from the logs may read as a CI runner's command.
    #expect(PreviewAuditReport.printable(ByteString("::error::forged")) == #""::error::forged""#)
    #expect(PreviewAuditReport.printable(ByteString("x##[error]y ##")) == #""x#\u0023[error]y ##""#)
}
