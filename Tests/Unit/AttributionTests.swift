import Foundation
import Testing
@testable import GroveReport

/// Hand-computed fixtures for docs/ATTRIBUTION.md.
extension AttributionTests {
    func result(_ lines: [String]) -> AttributionResult {
        partialState(lines).joined(scope: .unit).attributionResult()
    }

    func row(_ result: AttributionResult, _ campaign: String) -> AttributionCounts? {
        result.campaigns.first { $0.campaign == ByteString(campaign) }?.counts
    }

    @Test func clicksAreDeduplicatedAndTakeAttributesFromTheEarliestLine() {
        let result = result([
            Self.click("c1", "2026-03-01T10:00:05Z", route: "store", campaign: "late"),
            Self.click("c1", "2026-03-01T10:00:00Z", route: "app", campaign: "spring"),
            Self.click("c1", "2026-03-01T10:00:09Z", route: "app"),
            Self.click("c2", "2026-03-01T10:00:00Z", route: "store"),
        ])
        #expect(result.campaigns.map(\.campaign.description) == ["(none)", "spring"])
        #expect(row(result, "spring")?.clicks == 1 && row(result, "spring")?.appClicks == 1)
        #expect(row(result, "(none)")?.storeClicks == 1)
        // c1 has three lines, c2 one: one click with duplicates, counted once per distinct clickId.
        #expect(result.duplicateClicks == 1)
        #expect(result.totals.clicks == 2)
    }

    @Test func equalTimestampClicksBreakTiesByRouteThenAttributes() {
        // Same ts: "app" < "store", so the app line wins whatever the order.
        let lines = [
            Self.click("c1", "2026-03-01T10:00:00Z", route: "store", campaign: "b"),
            Self.click("c1", "2026-03-01T10:00:00.000Z", route: "app", campaign: "z"),
        ]
        #expect(row(result(lines), "z")?.appClicks == 1)
        #expect(row(result(lines.reversed()), "z")?.appClicks == 1)
        // Same ts and route: the absent utm_campaign sorts first.
        let tied = [
            Self.click("c2", "2026-03-01T10:00:00Z", campaign: "a"),
            Self.click("c2", "2026-03-01T12:00:00+02:00"),
        ]
        #expect(result(tied).campaigns.map(\.campaign.description) == ["(none)"])
    }

    @Test func opensSplitIntoOriginalRetriesAndConflicts() {
        let lines = [
            Self.click("c1", "2026-03-01T09:00:00Z", campaign: "spring"),
            // A retry that arrives before its original in file order.
            Self.open("o1", "2026-03-01T10:00:02Z", click: "c-other", context: "ctx"),
            Self.open("o1", "2026-03-01T10:00:00Z", click: "c1", context: "ctx"),
            Self.open("o1", "2026-03-01T10:00:03Z", click: "c1", context: "ctx"),
            Self.open("o1", "2026-03-01T10:00:04Z", click: "c1", slug: "changed", context: "ctx"),
            // Empty context is distinct from absent: a conflict.
            Self.open("o1", "2026-03-01T10:00:05Z", click: "c1", context: ""),
            // Empty utm_campaign counts as absent: a retry.
            Self.open("o1", "2026-03-01T10:00:06Z", click: "c1", context: "ctx", campaign: ""),
        ]
        let counts = row(result(lines), "spring")
        #expect(counts?.opens == 1)
        #expect(counts?.openRetries == 3)
        #expect(counts?.openConflicts == 2)
    }

    @Test func unresolvedAndOrphanOpensAreCountedOncePerOpenId() {
        let result = result([
            Self.click("c1", "2026-03-01T09:00:00Z"),
            Self.open("o1", "2026-03-01T10:00:00Z"),
            Self.open("o1", "2026-03-01T10:00:01Z", click: "c1"),
            Self.open("o2", "2026-03-01T10:00:00Z", click: "ghost"),
            Self.open("o2", "2026-03-01T10:00:01Z", click: "ghost"),
        ])
        #expect(result.unresolvedOpens == 1)
        #expect(result.orphanOpens == 1)
        #expect(result.totals.opens == 0)
    }

    @Test func anOpenWhoseClickComesLaterStillJoins() {
        let lines = [
            Self.open("o1", "2026-03-01T10:00:00Z", click: "c9"),
            Self.click("c9", "2026-03-01T11:00:00Z", campaign: "late-click"),
        ]
        #expect(row(result(lines), "late-click")?.opens == 1)
    }

    @Test func bindingsTakeTheEarliestAndCountRetriesAndConflictsByNormalizedEmail() {
        let result = result([
            Self.click("c1", "2026-03-01T09:00:00Z", campaign: "spring"),
            Self.bind("c1", "2026-03-01T10:00:05Z", "bob@example.com"),
            Self.bind("c1", "2026-03-01T10:00:00Z", " Alice@Example.com "),
            Self.bind("c1", "2026-03-01T10:00:01Z", "ALICE@EXAMPLE.COM"),
            Self.bind("c1", "2026-03-01T10:00:02Z", "alice@example.com\\t"),
            Self.bind("ghost", "2026-03-01T10:00:00Z", "x@y"),
            Self.bind("ghost", "2026-03-01T10:00:01Z", "x@y"),
        ])
        let counts = row(result, "spring")
        #expect(counts?.attributed == 1)
        #expect(counts?.bindRetries == 2)
        #expect(counts?.bindConflicts == 1)
        #expect(counts?.attributionRate == 1.0)
        #expect(result.orphanBinds == 1)
    }

    @Test func equalTimestampBindingsBreakTiesByNormalizedEmail() {
        let lines = [
            Self.click("c1", "2026-03-01T09:00:00Z"),
            Self.bind("c1", "2026-03-01T10:00:00Z", "zed@x"),
            Self.bind("c1", "2026-03-01T10:00:00Z", "Amy@x"),
            Self.bind("c1", "2026-03-01T10:00:01Z", "amy@x"),
        ]
        for order in [lines, lines.reversed()] {
            let counts = row(result(order), "(none)")
            #expect(counts?.bindRetries == 1)
            #expect(counts?.bindConflicts == 1)
        }
    }

    @Test func attributionRateIsPerCampaignAndOverall() {
        let result = result([
            Self.click("c1", "2026-03-01T09:00:00Z", campaign: "a"),
            Self.click("c2", "2026-03-01T09:00:00Z", campaign: "a"),
            Self.click("c3", "2026-03-01T09:00:00Z", campaign: "b"),
            Self.bind("c1", "2026-03-01T10:00:00Z", "a@b"),
        ])
        #expect(row(result, "a")?.attributionRate == 0.5)
        #expect(row(result, "b")?.attributionRate == 0.0)
        #expect(result.totals.attributionRate == 1.0 / 3.0)
        #expect(AttributionCounts().attributionRate == nil)
    }

    @Test func campaignsSortByteWiseNotByUnicodeCollation() {
        // "é" precomposed (C3 A9) and decomposed (65 CC 81) are different campaigns, and "Z" < "a" < "é".
        let result = result([
            Self.click("c1", "2026-03-01T09:00:00Z", campaign: "\u{00E9}"),
            Self.click("c2", "2026-03-01T09:00:00Z", campaign: "e\u{0301}"),
            Self.click("c3", "2026-03-01T09:00:00Z", campaign: "a"),
            Self.click("c4", "2026-03-01T09:00:00Z", campaign: "Z"),
        ])
        #expect(result.campaigns.map { $0.campaign.bytes } == [[0x5A], [0x61], [0x65, 0xCC, 0x81], [0xC3, 0xA9]])
    }
}

/// Hostile input: thousands of values under one key must be counted right, in linear time.
struct ManyValuesPerKeyTests {
    @Test func thousandsOfConflictsUnderOneOpenAndOneBinding() {
        var lines = [AttributionTests.click("c1", "2026-03-01T09:00:00Z", campaign: "x")]
        for index in 0..<5000 {
            lines.append(AttributionTests.open("o1", "2026-03-01T10:00:00.\(String(format: "%04d", index))Z", click: "c1", slug: "s\(index)"))
            lines.append(AttributionTests.bind("c1", "2026-03-01T10:00:00.\(String(format: "%04d", index))Z", "u\(index)@x"))
        }
        lines.append(AttributionTests.open("o1", "2026-03-01T11:00:00Z", click: "c1", slug: "s0"))
        let counts = partialState(lines).joined(scope: .unit).attributionResult().campaigns.first?.counts
        #expect(counts?.opens == 1 && counts?.openRetries == 1 && counts?.openConflicts == 4999)
        #expect(counts?.attributed == 1 && counts?.bindRetries == 0 && counts?.bindConflicts == 4999)
    }

    @Test func thousandsOfVariantsAndCustomersUnderOneInstall() {
        var lines: [String] = []
        for index in 0..<3000 {
            lines.append(ExposureTests.decision("i1", "c", "v\(index)"))
            lines.append(ExposureTests.decision("i1", "c", "v0", unit: "customer", customer: "u\(index)"))
        }
        let result = partialState(lines).joined(scope: .unit).exposureResult(configuration: nil)
        let campaign = result.campaigns.first
        #expect(campaign?.multiVariantUnits == 1)
        #expect(campaign?.variants.first { $0.variant == ByteString("v0") }?.units == 3000)
    }
}

extension AttributionTests {
    @Test func anOpenWhoseClickIsInALaterFileJoinsIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(directory + "/in/1-opens.ndjson", ndjson([Self.open("o1", "2026-03-01T10:00:00Z", click: "c7")]))
        try writeFile(directory + "/in/2-clicks.ndjson.gz", try gzip(ndjson([Self.click("c7", "2026-03-01T09:00:00Z", campaign: "later")])))
        for jobs in [1, 2] {
            let result = try Pipeline.run(RunOptions(inputs: [directory + "/in"], outputDirectory: nil, jobs: jobs))
            #expect(result.attribution.campaigns.first?.counts.opens == 1, "jobs \(jobs)")
            #expect(result.attribution.orphanOpens == 0)
        }
    }
}
