import Foundation
import Testing
@testable import GroveReport

/// `--max-campaigns` (docs/OUTPUTS.md, Names from the logs are bounded) on hand-computed
/// fixtures: which campaigns are kept, ties by name, the sums of `(other campaigns)` and their
/// rates, exposure's `(all)` row without lift or SRM, the audit's own ranking, unchanged totals.
extension CampaignFoldTests {
    @Test func attributionKeepsTheMostClicksTiesByNameAndSumsTheRest() {
        let state = Self.joined(Self.attributionLines)
        let all = state.attributionResult()
        let folded = state.attributionResult(maxCampaigns: 2)
        // beta (3) first; alpha and gamma tie at 2, and "alpha" < "gamma"; gamma and delta are summed.
        #expect(Self.names(folded) == ["(other campaigns)", "alpha", "beta"])
        #expect(folded.foldedCampaigns == 2)
        var others = AttributionCounts()
        others.clicks = 3            // k6, k7, k8
        others.storeClicks = 2       // k6, k8
        others.appClicks = 1         // k7
        others.opens = 1             // o3
        others.openRetries = 1       // o3's second line
        others.attributed = 2        // k6, k8
        others.bindConflicts = 1     // k6's second email
        // The days of the folded campaigns are summed day by day (`attribution_daily.csv`).
        let days = folded.campaigns.first?.counts.days ?? DailyTallies()
        #expect(days.sorted.reduce(SIMD3<Int>()) { $0 &+ $1.counts } == SIMD3(3, 1, 2))
        others.days = days
        #expect(folded.campaigns.first?.counts == others)
        #expect(others.attributionRate == 2.0 / 3.0)
        #expect(folded.campaigns.dropFirst().elementsEqual(all.campaigns.filter { ["alpha", "beta"].contains($0.campaign.description) }) {
            $0.campaign == $1.campaign && $0.counts == $1.counts
        })
        // Totals and the extras are those of every campaign.
        #expect(folded.totals == all.totals && folded.totals.clicks == 8)
        #expect(folded.duplicateClicks == all.duplicateClicks)
        // Up to N campaigns, nothing is folded.
        #expect(state.attributionResult(maxCampaigns: 4) == all)
        #expect(all.foldedCampaigns == 0)
        // N = 1 keeps beta alone.
        #expect(Self.names(state.attributionResult(maxCampaigns: 1)) == ["(other campaigns)", "beta"])
        #expect(state.attributionResult(maxCampaigns: 1).foldedCampaigns == 3)
    }

    @Test func exposureKeepsTheMostUnitsAndSumsTheRestIntoOneRowWithoutLiftOrSRM() throws {
        let state = Self.joined(Self.exposureLines)
        let all = state.exposureResult(configuration: nil)
        let result = state.exposureResult(configuration: nil, maxCampaigns: 2)
        // e1 (5 units) first; e3 and e4 tie at 4, and "e3" < "e4"; e2 and e4 are summed.
        #expect(result.campaigns.map(\.campaign.description) == ["(other campaigns)", "e1", "e3"])
        #expect(result.foldedCampaigns == 2 && all.foldedCampaigns == 0)
        let others = try #require(result.campaigns.first)
        #expect(others.foldedCampaigns == 2)
        #expect(others.srmPValue == nil)
        #expect(others.missingCustomer == 1)        // z9 in e4
        #expect(others.previewContaminated == 1)    // p1's clean decision in e4
        #expect(others.multiVariantUnits == 1)      // m1 in e2
        #expect(others.variants.count == 1)
        let row = try #require(others.variants.first)
        #expect(row.campaign.description == "(other campaigns)" && row.variant.description == "(all)")
        #expect(!row.control)
        #expect(row.units == 5)                     // x1; z1…z4
        #expect(row.convertedUnits == 2)            // x1, z1
        #expect(row.orders == 2)
        #expect(row.revenueMinor == 400)
        #expect(row.impressions == 1)               // x1's, not the testers'
        #expect(row.conversionRate == 0.4)
        #expect(row.revenuePerUnit == 80)
        #expect(row.absDiff == nil && row.relLift == nil && row.ciLow == nil && row.ciHigh == nil && row.pValue == nil)
        #expect(row.srmPValue == nil)
        // The sums of many experiments carry no health warning, though no control is among them.
        #expect(others.warnings == [])
        // The kept campaigns are exactly as without folding: lift and SRM included.
        #expect(Array(result.campaigns.dropFirst()) == all.campaigns.filter { ["e1", "e3"].contains($0.campaign.description) })
        #expect(result.campaigns[1].variants[1].absDiff == 0.5)
        // The rows' counts add up to the same sums either way.
        func sum(_ campaigns: [ExposureCampaign], _ count: KeyPath<ExposureRow, Int>) -> Int {
            campaigns.flatMap(\.variants).reduce(0) { $0 + $1[keyPath: count] }
        }
        for count: KeyPath<ExposureRow, Int> in [\.units, \.convertedUnits, \.orders, \.impressions] {
            #expect(sum(result.campaigns, count) == sum(all.campaigns, count))
        }
    }

    @Test func theAuditKeepsTheMostViolationsThenPreviewEventsAndSumsTheRest() throws {
        let state = Self.joined(Self.exposureLines)
        let all = state.exposureResult(configuration: nil).audit
        let audit = state.exposureResult(configuration: nil, maxCampaigns: 2).audit
        // e4 has a violation; e2 two preview events, e3 one, e1 none: e1 and e3 are summed.
        #expect(audit.campaigns.map(\.campaign.description) == ["(other campaigns)", "e2", "e4"])
        #expect(audit.foldedCampaigns == 2)
        let others = try #require(audit.campaigns.first)
        #expect(others.foldedCampaigns == 2)
        #expect(others.previewImpressions == 1 && others.previewInstalls == 1)   // q3 in e3
        #expect(others.previewDecisions == 0 && others.violations.total == 0)
        #expect(audit.campaigns[2].violations.missingCustomer == 1)
        // Totals, violations and the leak check are those of every campaign.
        #expect(audit.violations == all.violations && audit.violations.missingCustomer == 1)
        #expect(audit.previewTotals == all.previewTotals && audit.leakCheck == 0)
        #expect(all.campaigns.count == 4 && all.foldedCampaigns == 0)
    }

    @Test func theConfigurationsCampaignsAndRowsFoldLikeAnyOther() throws {
        // A configured campaign without traffic has rows of 0 units: it is folded first, and its
        // rows' impressions are summed like every other count.
        let configuration = try Configuration.parse(Array(#"""
            {"campaigns": [{"id": "quiet", "enabled": false, "variants": [{"id": "A", "weight": 1}, {"id": "B", "weight": 1}]},
                           {"id": "e1", "variants": [{"id": "A", "weight": 60}, {"id": "B", "weight": 40}]}]}
            """#.utf8), path: "config.json")
        let lines = Self.exposureLines + [E.impression("w1", "quiet", "A"), E.decision("d1", "quiet", "A", preview: true)]
        let state = Self.joined(lines)
        let all = state.exposureResult(configuration: configuration)
        let result = state.exposureResult(configuration: configuration, maxCampaigns: 3)
        #expect(all.campaigns.map(\.campaign.description) == ["e1", "e2", "e3", "e4", "quiet"])
        #expect(result.campaigns.map(\.campaign.description) == ["(other campaigns)", "e1", "e3", "e4"])
        #expect(result.campaigns.first?.variants.first?.impressions == 2)   // x1 in e2, w1 in quiet
        #expect(result.campaigns.first?.variants.first?.units == 1)
        // e1's SRM still uses its configured weights.
        #expect(result.campaigns[1] == all.campaigns[0])
        // The audit keeps the disabled campaign (a preview decision on it is a violation).
        #expect(result.audit.campaigns.map(\.campaign.description) == ["(other campaigns)", "e2", "e4", "quiet"])
        #expect(result.audit.violations == all.audit.violations)
    }

    @Test func aCampaignOfTheLogsNamedLikeTheFoldIsFoldedWheneverThereIsAFold() {
        let lines = (1...5).map { A.click("x\($0)", "2026-03-01T10:00:00Z", campaign: "(other campaigns)") }
            + [A.click("a1", "2026-03-01T10:00:00Z", campaign: "a"), A.click("b1", "2026-03-01T10:00:00Z", campaign: "b")]
        let state = Self.joined(lines)
        // Without a fold it is a campaign like any other.
        let all = state.attributionResult(maxCampaigns: 3)
        #expect(Self.names(all) == ["(other campaigns)", "a", "b"] && all.foldedCampaigns == 0)
        // With one, it is among the folded however many clicks it has, so no name is written twice.
        let folded = state.attributionResult(maxCampaigns: 2)
        #expect(Self.names(folded) == ["(other campaigns)", "a", "b"])
        #expect(folded.foldedCampaigns == 1 && folded.campaigns.first?.counts.clicks == 5)
        let one = state.attributionResult(maxCampaigns: 1)
        #expect(Self.names(one) == ["(other campaigns)", "a"] && one.foldedCampaigns == 2 && one.campaigns.first?.counts.clicks == 6)
    }

    @Test func theDecisionIsDeterministicAndCountsWhatItFolds() {
        let campaigns: [(name: ByteString, weight: Int)] = ["d", "b", "c", "a"].map { (ByteString($0), 1) }
        let fold = CampaignFold(campaigns, maximum: 2)
        #expect(fold.isFolding && fold.foldedCount == 2)
        // By position: "d", "b", "c", "a" — the tie at weight 1 keeps "a" and "b".
        #expect((0..<4).map(fold.folds) == [true, false, true, false])
        let none = CampaignFold(campaigns, maximum: 4)
        #expect(!none.isFolding && none.foldedCount == 0 && !none.folds(0))
        // The largest weights first, whatever their names.
        let weighted = CampaignFold([(ByteString("a"), 1), (ByteString("z"), 5), (ByteString("m"), 3)], maximum: 2)
        #expect((0..<3).map(weighted.folds) == [true, false, false])
        // Folding folded rows again counts the campaigns behind the earlier fold row.
        let again = CampaignFold([(CampaignFold.name, 0), (ByteString("a"), 9), (ByteString("b"), 8)], maximum: 1)
        #expect(CampaignFold.count(afterFolding: 7, again) == 8)   // the 7 behind the row, and b
        #expect(CampaignFold.count(afterFolding: 0, again) == 2)
        #expect(CampaignFold.count(afterFolding: 7, CampaignFold.none) == 7)
    }

    @Test func summaryJSONCountsTheFoldedCampaigns() throws {
        let state = Self.joined(Self.attributionLines + Self.exposureLines)
        let result = RunResult(
            accounting: state.accounting, attribution: state.attributionResult(maxCampaigns: 3),
            exposure: state.exposureResult(configuration: nil, maxCampaigns: 1), wallSeconds: 0)
        let summary = try JSONSerialization.jsonObject(
            with: Data(SummaryReport.json(result.accounting, wallSeconds: 0, folded: result.foldedCampaigns))) as? [String: Any]
        #expect(summary?["folded_campaigns"] as? [String: Int] == ["attribution": 1, "exposure": 3])
        let unfolded = try JSONSerialization.jsonObject(with: Data(SummaryReport.json(result.accounting, wallSeconds: 0))) as? [String: Any]
        #expect(unfolded?["folded_campaigns"] as? [String: Int] == ["attribution": 0, "exposure": 0])
    }

    /// The page draws at most `CampaignFold.pageMaximum` campaigns an analysis, whatever the reports name.
    @Test func thePageFoldsBeyondAThousandCampaigns() {
        var lines: [String] = []
        for index in 0..<1_002 {
            let campaign = "c\(String(index).leftPadding(to: 4))"
            // c0000 and c0001 get one click and unit fewer than the others.
            let count = index < 2 ? 1 : 2
            lines += (0..<count).map { A.click("k\(index)-\($0)", "2026-03-01T10:00:00Z", campaign: campaign) }
            lines += (0..<count).map { E.decision("i\(index)-\($0)", campaign, "A") }
        }
        let page = ReportPageTests.page(lines)
        #expect(page.components(separatedBy: "<details").count - 1 == 2 * 1_001, "1,000 campaigns and the fold, twice")
        #expect(page.contains("(other campaigns) <span class=\"tags\">— 2 clicks, 0 opens, 0 attributed (0.0%)"))
        #expect(page.contains("(other campaigns) <span class=\"tags\">— 1 variants, 2 units, the sums of 2 campaigns"))
        #expect(page.contains("1000 campaigns are named; the 2 with the fewest clicks are summed as (other campaigns)"))
        #expect(page.contains("1000 campaigns are named; the 2 with the fewest units are summed as (other campaigns)"))
        #expect(page.contains("1002 attribution campaigns, 1002 exposure campaigns"))
        #expect(page.contains("1000 campaigns are named; the 2 with the fewest violations, then preview events and pairings are summed"))
        #expect(!page.contains("<summary>c0000 ") && !page.contains("<summary>c0001 ") && page.contains("<summary>c1001 "))
        #expect(page.contains("No lift, interval or SRM: the sums of 2 campaigns are not one experiment."))
    }
}

private extension String {
    func leftPadding(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
