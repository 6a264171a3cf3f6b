import Foundation
import Testing
@testable import GroveReport

/// The health warnings of docs/EXPOSURE.md, each threshold on both sides, on hand-built campaigns
/// and end to end through `exposure.json` and `validate`.
struct HealthWarningTests {
    /// A campaign with one row per (units, control) pair and the given counters.
    static func campaign(
        _ rows: [(units: Int, control: Bool)], srm: Double? = 0.5, multiVariant: Int = 0
    ) -> ExposureCampaign {
        let variants = rows.enumerated().map { index, row in
            ExposureRow(campaign: ByteString("c"), variant: ByteString("v\(index)"), control: row.control, units: row.units)
        }
        return ExposureCampaign(
            campaign: ByteString("c"), srmPValue: srm, missingCustomer: 0, previewContaminated: 0,
            multiVariantUnits: multiVariant, variants: variants)
    }

    /// Two rows of 50 units, one of them the control: no warning applies.
    static let healthy: [(units: Int, control: Bool)] = [(50, true), (50, false)]

    @Test func aHealthyCampaignHasNoWarning() {
        #expect(Self.campaign(Self.healthy).warnings == [])
    }

    @Test func sampleRatioMismatchBelowOneInAThousandOnly() {
        #expect(Self.campaign(Self.healthy, srm: 0.000999).warnings == [.sampleRatioMismatch])
        #expect(Self.campaign(Self.healthy, srm: 0.001).warnings == [])
        #expect(Self.campaign(Self.healthy, srm: 0).warnings == [.sampleRatioMismatch])
        #expect(Self.campaign(Self.healthy, srm: nil).warnings == [])
    }

    @Test func multipleExposuresNeedTenUnitsAndOnePercent() {
        // m = 1, u = 9: m + u = 10 ≥ 10 and 1 ≥ 0.1 → warned.
        #expect(Self.campaign([(5, true), (4, false)], multiVariant: 1).warnings.contains(.multipleExposures))
        // m = 1, u = 8: m + u = 9 < 10 → not warned, however large the share.
        #expect(!Self.campaign([(4, true), (4, false)], multiVariant: 1).warnings.contains(.multipleExposures))
        // m = 9, u = 0 (no row has units left): 9 < 10 → not warned; m = 10, u = 0 → warned.
        #expect(!Self.campaign([], multiVariant: 9).warnings.contains(.multipleExposures))
        #expect(Self.campaign([], multiVariant: 10).warnings.contains(.multipleExposures))
        // m = 1, u = 99: 1 ≥ 0.01·100 exactly → warned; u = 100: 1 < 1.01 → not warned.
        #expect(Self.campaign([(50, true), (49, false)], multiVariant: 1).warnings == [.multipleExposures])
        #expect(Self.campaign([(50, true), (50, false)], multiVariant: 1).warnings == [])
        // m = 0 never warns.
        #expect(Self.campaign([(5_000, true), (5_000, false)], multiVariant: 0).warnings == [])
    }

    @Test func fewUnitsBelowEightInAnyRowIncludingAConfiguredEmptyOne() {
        #expect(Self.campaign([(8, true), (8, false)]).warnings == [])
        #expect(Self.campaign([(8, true), (7, false)]).warnings == [.fewUnits])
        #expect(Self.campaign([(7, true), (100, false)]).warnings == [.fewUnits])
        #expect(Self.campaign([(50, true), (50, false), (0, false)]).warnings == [.fewUnits])
    }

    @Test func noSingleControlWithNoneOrSeveral() {
        #expect(Self.campaign([(50, false), (50, false)]).warnings == [.noSingleControl])
        #expect(Self.campaign([(50, true), (50, false)]).warnings == [])
        #expect(Self.campaign([(50, true), (50, true)]).warnings == [.noSingleControl])
    }

    @Test func allFourAreSortedByteWise() {
        let campaign = Self.campaign([(3, false), (100, false)], srm: 1e-9, multiVariant: 5)
        #expect(campaign.warnings.map(\.name) == ["few_units", "multiple_exposures", "no_single_control", "sample_ratio_mismatch"])
        #expect(HealthWarning.allCases.map(\.name) == HealthWarning.allCases.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// From decisions: a configured variant without traffic is `few_units`, a 100/50 split is
    /// `sample_ratio_mismatch` (χ² = 2·25²/75 = 16.67, p = 4.5e-5), and the rows carry no control.
    @Test func warningsComeFromTheAnalysedRows() throws {
        var lines = (1...100).map { ExposureTests.decision("a\($0)", "split", "A") }
        lines += (1...50).map { ExposureTests.decision("b\($0)", "split", "B") }
        lines += (1...60).map { ExposureTests.decision("k\($0)", "fine", "ctl", control: true) }
        lines += (1...60).map { ExposureTests.decision("t\($0)", "fine", "T") }
        let configuration = Configuration(campaigns: [
            .init(id: ByteString("fine"), enabled: true, variants: [
                .init(id: ByteString("ctl"), weight: 1), .init(id: ByteString("T"), weight: 1),
                .init(id: ByteString("unused"), weight: 0),
            ]),
        ])
        let result = partialState(lines).joined(scope: .unit).exposureResult(configuration: configuration)
        let split = try #require(result.campaigns.first { $0.campaign == ByteString("split") })
        #expect(try #require(split.srmPValue) < 0.001)
        #expect(split.warnings == [.noSingleControl, .sampleRatioMismatch])
        let fine = try #require(result.campaigns.first { $0.campaign == ByteString("fine") })
        #expect(fine.variants.map(\.units) == [60, 60, 0])
        #expect(fine.warnings == [.fewUnits])
    }

    @Test func exposureJSONListsWarningsPerCampaignAndAtTheTop() throws {
        let healthy = Self.campaign(Self.healthy)
        var flagged = Self.campaign([(50, true), (5, false)], srm: 1e-5)
        flagged.campaign = ByteString("z")
        let json = try JSONSerialization.jsonObject(with: Data(ExposureReport.json([healthy, flagged]))) as? [String: Any]
        let campaigns = try #require(json?["campaigns"] as? [[String: Any]])
        #expect(campaigns[0]["warnings"] as? [String] == [])
        #expect(campaigns[1]["warnings"] as? [String] == ["few_units", "sample_ratio_mismatch"])
        let top = try #require(json?["warnings"] as? [[String: String]])
        #expect(top == [["campaign": "z", "warning": "few_units"], ["campaign": "z", "warning": "sample_ratio_mismatch"]])
    }

    /// `validate` prints the warnings for people and keeps its exit status (0: no violation).
    @Test func validatePrintsWarningsWithoutChangingItsExitStatus() throws {
        let directory = try temporaryDirectory()
        var lines = (1...3).map { ExposureTests.decision("c\($0)", "tiny", "ctl", control: true) }
        lines += (1...3).map { ExposureTests.decision("t\($0)", "tiny", "T") }
        try writeFile(directory + "/logs.ndjson", ndjson(lines))
        let result = try execute(["validate", "logs.ndjson"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("No violations."))
        #expect(result.stdout.contains("Health warnings: 1 in 1 of 1 campaigns"))
        #expect(result.stdout.contains("warning: tiny: few_units: a variant has fewer than 8 units"))
        #expect(result.stdout.contains("(T 3, ctl 3)"))

        let quiet = (1...8).map { ExposureTests.decision("c\($0)", "ok", "ctl", control: true) }
            + (1...8).map { ExposureTests.decision("t\($0)", "ok", "T") }
        try writeFile(directory + "/quiet.ndjson", ndjson(quiet))
        let calm = try execute(["validate", "quiet.ndjson"], in: directory)
        #expect(calm.status == 0, "\(calm.stderr)")
        #expect(calm.stdout.contains("Health warnings: none."))
    }
}
