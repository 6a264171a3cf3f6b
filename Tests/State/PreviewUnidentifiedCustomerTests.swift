import Foundation
import Testing
@testable import GroveReport

/// The ninth violation, `preview_unidentified_customer` (docs/AUDIT.md): accepted preview
/// decisions of unit `customer` without `customerId`, consent regardless — a pin never bypasses
/// identification. Hand-computed, then through every path: `preview_audit.json`, `validate`
/// (text, exit 3, JUnit, GitHub), the page, the stage filters and `--state`.
@Suite(.serialized)
struct PreviewUnidentifiedCustomerTests {
    typealias E = ExposureTests

    /// vip (customer unit, not configured) and old-offer (disabled by `configuration`).
    static let lines = [
        // vip: counted — preview by `isPreview`, no customerId.
        E.decision("t1", "vip", "gold", preview: true, unit: "customer"),
        // vip: identified: not counted.
        E.decision("t2", "vip", "gold", preview: true, unit: "customer", customer: "u2", previewKey: "preview"),
        // vip: counted — preview by `preview` alone, consent denied, no customerId.
        E.decision("t3", "vip", "gold", preview: true, unit: "customer", consent: "denied", previewKey: "preview"),
        // vip: not preview: missing_customer, not this violation.
        E.decision("i4", "vip", "gold", unit: "customer"),
        // vip: not preview and denied: neither.
        E.decision("i5", "vip", "gold", unit: "customer", consent: "denied"),
        // vip: preview of an install unit: nobody needs to be identified.
        E.decision("t6", "vip", "silver", preview: true, unit: "install"),
        // vip: a preview impression carries no unit.
        E.impression("t1", "vip", "gold", preview: true),
        // old-offer (disabled): counted, and on the disabled campaign too.
        E.decision("t8", "old-offer", "a", preview: true, unit: "customer"),
    ]

    static let configurationJSON = #"{"campaigns": [{"id": "old-offer", "enabled": false}]}"#

    static var configuration: Configuration {
        Configuration(campaigns: [.init(id: ByteString("old-offer"), enabled: false, variants: [])])
    }

    func audit(_ lines: [String], scope: PreviewScope = .unit) -> PreviewAudit {
        partialState(lines).joined(scope: scope).exposureResult(configuration: Self.configuration).audit
    }

    /// `{name: n}` of `violations` in `preview_audit.json`: of a campaign, or the totals' for nil.
    static func violations(_ audit: JSONValue?, campaign: String?) -> [String: Double] {
        var object = audit
        if let campaign {
            guard case .array(let campaigns)? = audit?["campaigns"] else { return [:] }
            object = campaigns.first { $0["campaign"] == .string(campaign) }
        }
        guard case .object(let members)? = object?["violations"] else { return [:] }
        var counts: [String: Double] = [:]
        for (name, value) in members { if case .number(let count) = value { counts[name] = count } }
        return counts
    }

    @Test(arguments: PreviewScope.allCases)
    func countsPerCampaignAndInTheTotals(scope: PreviewScope) throws {
        let audit = audit(Self.lines, scope: scope)
        #expect(audit.campaigns.map(\.campaign.description) == ["old-offer", "vip"])
        let old = audit.campaigns[0].violations
        let vip = audit.campaigns[1].violations
        #expect(vip.previewUnidentifiedCustomer == 2)
        #expect(vip.missingCustomer == 1)
        #expect(vip.total == 3)
        #expect(audit.campaigns[1].previewDecisions == 4)
        #expect(old.previewUnidentifiedCustomer == 1)
        #expect(old.previewOnDisabledCampaign == 1 && old.decisionOnDisabledCampaign == 1)
        #expect(old.total == 3)
        #expect(audit.violations.previewUnidentifiedCustomer == 3)
        #expect(audit.violations.missingCustomer == 1)
        #expect(audit.violations.total == 6)
        #expect(audit.violations.named.map(\.name) == AuditViolations.names)
        #expect(audit.violations.named[2] == (name: "preview_unidentified_customer", count: 3))
        // Without the configuration old-offer still has it: it does not depend on the campaign's state.
        let unconfigured = partialState(Self.lines).joined(scope: scope).exposureResult(configuration: nil).audit
        #expect(unconfigured.violations.previewUnidentifiedCustomer == 3)
        #expect(unconfigured.violations.total == 4)
    }

    @Test func theCountSurvivesStageRecordsAndMergesInAnyOrder() throws {
        let halves = [Array(Self.lines.prefix(4)), Array(Self.lines.dropFirst(4))]
        var decoder = RecordDecoder()
        for half in halves.reversed() {
            for record in RecordEncoder.encode(partialState(half)).split(separator: 0x0A) { try decoder.read(record) }
        }
        #expect(decoder.state.exposure.counters.records.map(\.previewUnidentifiedCustomer).sorted() == [1, 2])
        #expect(renderedReports(decoder.state, configuration: Self.configuration)
            == renderedReports(partialState(Self.lines), configuration: Self.configuration))
    }

    @Test func validateExits3OnThisViolationAlone() throws {
        let directory = try temporaryDirectory()
        let alone = [E.decision("t1", "vip", "gold", preview: true, unit: "customer")]
        let result = try execute(
            ["validate", "-", "--out", directory + "/out", "--junit", directory + "/junit.xml", "--github"],
            stdin: ndjson(alone), environment: ["GITHUB_STEP_SUMMARY": directory + "/summary.md"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.contains("    \"vip\": preview installs 1, pairings 0, contaminated events 0; preview_unidentified_customer 1\n"),
                "\(result.stdout)")
        #expect(result.stdout.contains("VIOLATIONS: 1 (preview_unidentified_customer 1)\n"), "\(result.stdout)")
        let commands = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands == ["::error title=preview_unidentified_customer::preview_unidentified_customer: 1 events: vip (1)"])
        #expect(String(decoding: try readFile(directory + "/summary.md"), as: UTF8.self)
            .contains("| preview_unidentified_customer | vip | 1 |\n"))

        // JUnit: the campaign's nine cases, only this one failing, then the leak check.
        let reader = try #require(JUnitReader.read(try readFile(directory + "/junit.xml")))
        #expect(reader.suites.first?["tests"] == "10")
        #expect(reader.suites.first?["failures"] == "1")
        #expect(reader.cases.map(\.name) == AuditViolations.names + ["leak_check"])
        #expect(reader.cases.filter { $0.failure != nil }
            == [JUnitReader.TestCase(className: "vip", name: "preview_unidentified_customer", failure: "1 events")])

        let audit = JSONValue.parse(try readFile(directory + "/out/preview_audit.json"))
        #expect(Self.violations(audit, campaign: "vip")["preview_unidentified_customer"] == 1)
        #expect(Self.violations(audit, campaign: nil)["preview_unidentified_customer"] == 1)
        #expect(Self.violations(audit, campaign: nil).values.reduce(0, +) == 1)

        // Identified, the same decision breaks no rule.
        let identified = [E.decision("t1", "vip", "gold", preview: true, unit: "customer", customer: "u1")]
        let clean = try execute(["validate", "-", "--out", directory + "/clean"], stdin: ndjson(identified))
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("\"vip\": preview installs 1, pairings 0, contaminated events 0; ok\nNo violations.\n"))
        let cleanAudit = JSONValue.parse(try readFile(directory + "/clean/preview_audit.json"))
        #expect(Self.violations(cleanAudit, campaign: "vip")["preview_unidentified_customer"] == 0)
        #expect(Self.violations(cleanAudit, campaign: nil)["preview_unidentified_customer"] == 0)
    }

    @Test func theReportsThePageAndTheStageFiltersCarryIt() throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/config.json", Array(Self.configurationJSON.utf8))
        let first = ndjson(Array(Self.lines.prefix(3)))
        let second = ndjson(Array(Self.lines.dropFirst(3)))
        try writeFile(directory + "/a.ndjson", first)
        try writeFile(directory + "/b.ndjson", second)
        let run = try execute(["run", "a.ndjson", "b.ndjson", "--out", "run", "--config", "config.json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let audit = JSONValue.parse(try readFile(directory + "/run/preview_audit.json"))
        #expect(Self.violations(audit, campaign: "vip") == [
            "preview_grant": 0, "missing_customer": 1, "preview_unidentified_customer": 2, "preview_on_disabled_campaign": 0,
            "decision_on_disabled_campaign": 0, "invalid_link_accepted": 0, "wrong_link_outcome": 0,
            "paired_while_denied": 0, "pin_too_long": 0,
        ])
        #expect(Self.violations(audit, campaign: "old-offer")["preview_unidentified_customer"] == 1)
        #expect(Self.violations(audit, campaign: nil)["preview_unidentified_customer"] == 3)
        #expect(Self.violations(audit, campaign: nil).count == 9)

        // The page: a column of the campaign table and a row of the totals, the counts highlighted.
        let page = String(decoding: try readFile(directory + "/run/report.html"), as: UTF8.self)
        #expect(page.contains("<th>preview_<wbr>unidentified_<wbr>customer</th>"))
        #expect(page.contains("6 violations.</strong>missing_customer 1, preview_unidentified_customer 3, "), "\(page)")

        // partial per file → merge --join 1, 2, 3 → render: the same files.
        var records: [UInt8] = []
        for (index, (name, bytes)) in [("a.ndjson", first), ("b.ndjson", second)].enumerated() {
            let partial = try execute(["partial", "--name", name, "--index", "\(index)"], stdin: bytes)
            #expect(partial.status == 0, "\(partial.stderr)")
            records += Array(partial.stdout.utf8)
        }
        #expect(String(decoding: records, as: UTF8.self).contains(#""previewUnidentifiedCustomer":2"#))
        for join in ["1", "2", "3"] {
            let merged = try execute(["merge", "--join", join], stdin: records)
            #expect(merged.status == 0, "\(merged.stderr)")
            records = Array(merged.stdout.utf8)
        }
        let render = try execute(["render", "--out", "stages", "--config", "config.json"], in: directory, stdin: records)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try reportContents(directory + "/stages") == reportContents(directory + "/run"))
    }

    /// Nights on a state, each checked against one run over the nights so far, under both scopes.
    @Test(arguments: ["unit", "event"])
    func nightsOnAStateCountWhatOneRunCounts(scope: String) throws {
        let directory = try temporaryDirectory()
        try writeFile(directory + "/config.json", Array(Self.configurationJSON.utf8))
        let options = ["--preview-scope", scope, "--config", directory + "/config.json"]
        let nights = [Array(Self.lines.prefix(2)), Array(Self.lines[2..<5]), Array(Self.lines.dropFirst(5))]
        try StateTests.expectNightsAddUp(nights, options: options, in: directory)
        let audit = JSONValue.parse(try readFile(directory + "/state-3/preview_audit.json"))
        #expect(Self.violations(audit, campaign: nil)["preview_unidentified_customer"] == 3)
        #expect(Self.violations(audit, campaign: "vip")["preview_unidentified_customer"] == 2)
        // The state keeps it as a field of the campaign's counters.
        let stored = try commandOutput(["sqlite3", directory + "/state.db",
                                        #"SELECT json_extract(value, '$.previewUnidentifiedCustomer') FROM totals WHERE key = '["campaign_counters","vip"]'"#])
        #expect(stored == Array("2\n".utf8))
    }
}
