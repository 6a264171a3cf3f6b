import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// Preview links through the built binary: preview-install exclusion by scope, and pairing codes
/// that never reach an output file.
@Suite(.serialized)
struct PreviewLinkEndToEndTests {
    /// i1 paired for campaign c and logged nothing flagged; i2 and i3 are ordinary installs.
    static let pairedOnly = [
        ExposureTests.decision("i1", "c", "A", ts: "2026-03-01T10:00:00Z"),
        ExposureTests.impression("i1", "c", "A"),
        ExposureTests.order("o1", "i1", amount: 500, ts: "2026-03-01T11:00:00Z"),
        ExposureTests.decision("i2", "c", "A", ts: "2026-03-01T10:00:00Z"),
        ExposureTests.decision("i3", "c", "B", ts: "2026-03-01T10:00:00Z"),
        PreviewLinkTests.link("i1", campaign: "c", variant: "A", ts: "2026-03-01T09:00:00Z", pin: "2026-03-02T09:00:00Z"),
    ]

    /// `exposure.json`'s variant rows of a campaign, by variant.
    func variants(_ exposure: JSONValue?, _ campaign: String) -> [String: JSONValue] {
        guard case .array(let campaigns)? = exposure?["campaigns"],
              let match = campaigns.first(where: { $0["campaign"] == .string(campaign) }),
              case .array(let rows)? = match["variants"]
        else { return [:] }
        var byVariant: [String: JSONValue] = [:]
        for row in rows { if case .string(let name)? = row["variant"] { byVariant[name] = row } }
        return byVariant
    }

    func auditCampaign(_ audit: JSONValue?, _ campaign: String) -> JSONValue? {
        guard case .array(let campaigns)? = audit?["campaigns"] else { return nil }
        return campaigns.first { $0["campaign"] == .string(campaign) }
    }

    @Test func aPairedOnlyInstallIsExcludedUnderUnitScopeAndKeptUnderEventScope() throws {
        let directory = try temporaryDirectory()
        for scope in ["unit", "event"] {
            let result = try execute(["run", "-", "--out", directory + "/" + scope, "--preview-scope", scope], stdin: ndjson(Self.pairedOnly))
            #expect(result.status == 0, "\(result.stderr)")
        }
        let unit = JSONValue.parse(try readFile(directory + "/unit/exposure.json"))
        let event = JSONValue.parse(try readFile(directory + "/event/exposure.json"))
        // Unit scope: i1's decision and impression of c go; A keeps i2 alone, who bought nothing.
        let unitRows = variants(unit, "c")
        #expect(unitRows["A"]?["units"] == .number(1))
        #expect(unitRows["A"]?["converted_units"] == .number(0))
        #expect(unitRows["A"]?["impressions"] == .number(0))
        #expect(unitRows["B"]?["units"] == .number(1))
        // Event scope: nothing is flagged, so i1 stays, with its order of 500 after exposure.
        let eventRows = variants(event, "c")
        #expect(eventRows["A"]?["units"] == .number(2))
        #expect(eventRows["A"]?["converted_units"] == .number(1))
        #expect(eventRows["A"]?["revenue_minor"] == .number(500))
        #expect(eventRows["A"]?["impressions"] == .number(1))

        let unitAudit = auditCampaign(JSONValue.parse(try readFile(directory + "/unit/preview_audit.json")), "c")
        #expect(unitAudit?["preview_pairings"] == .number(1))
        #expect(unitAudit?["preview_installs"] == .number(1))
        #expect(unitAudit?["preview_contaminated"] == .number(2))
        #expect(unitAudit?["preview_decisions"] == .number(0))
        let eventAudit = auditCampaign(JSONValue.parse(try readFile(directory + "/event/preview_audit.json")), "c")
        #expect(eventAudit?["preview_installs"] == .number(1))
        #expect(eventAudit?["preview_contaminated"] == .number(0))
    }

    /// Every pairing code (8 characters or more) in the `url` values of the lines.
    static func pairingCodes(_ lines: [String]) -> Set<String> {
        var codes = Set<String>()
        let codeCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
        for line in lines {
            var rest = Substring(line)
            while let range = rest.range(of: "code=") {
                let code = rest[range.upperBound...].prefix { codeCharacters.contains($0) }
                if code.count >= 8 { codes.insert(String(code)) }
                rest = rest[range.upperBound...]
            }
        }
        return codes
    }

    @Test func noGeneratedPairingCodeReachesAnyOutputFile() throws {
        let directory = try temporaryDirectory()
        let summary = try LogGenerator.generate(
            GeneratorOptions(events: 30_000, files: 3, seed: 77, badLineShare: 0.05), into: directory + "/in")
        var lines: [String] = []
        for file in summary.files {
            lines += try gunzip(file).split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        }
        let codes = Self.pairingCodes(lines)
        #expect(codes.count > 50)
        // The check means something: codes sit in accepted links and in rejected lines alike.
        let rejectedWithCode = lines.filter { line in
            guard case .rejected = classify(line) else { return false }
            return !Self.pairingCodes([line]).isEmpty
        }
        #expect(rejectedWithCode.count > 5)

        let run = try execute(["run", directory + "/in", "--out", directory + "/run", "--rejects-raw", "--max-reject-rate", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let validate = try execute(
            ["validate", directory + "/in", "--out", directory + "/validate", "--rejects-raw", "--max-reject-rate", "1",
             "--junit", directory + "/junit.xml", "--github"],
            environment: ["GITHUB_STEP_SUMMARY": directory + "/step-summary.md"])
        #expect(validate.status == 3, "\(validate.stderr)")
        var outputs: [(String, String)] = [("validate stdout", validate.stdout), ("validate stderr", validate.stderr)]
        for out in ["run", "validate"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory + "/" + out) {
                outputs.append((out + "/" + name, String(decoding: try readFile(directory + "/" + out + "/" + name), as: UTF8.self)))
            }
        }
        for name in ["junit.xml", "step-summary.md"] {
            outputs.append((name, String(decoding: try readFile(directory + "/" + name), as: UTF8.self)))
        }
        #expect(outputs.count >= 18)
        #expect(outputs.contains { $0.0 == "run/rejects.ndjson" && $0.1.contains(#""raw":"#) && $0.1.contains("[REDACTED]") })
        for (name, text) in outputs {
            let leaked = codes.filter { text.contains($0) }
            #expect(leaked.isEmpty, "\(name) shows pairing codes \(leaked.prefix(3))")
        }
    }
}
