import Testing
@testable import GroveReport

/// Hand-computed fixtures for docs/EXPOSURE.md and docs/AUDIT.md.
extension ExposureTests {
    func analyse(_ lines: [String], configuration: Configuration? = nil, scope: PreviewScope = .unit) -> ExposureResult {
        partialState(lines).joined(scope: scope).exposureResult(configuration: configuration)
    }

    func row(_ result: ExposureResult, _ campaign: String, _ variant: String) -> ExposureRow? {
        result.campaigns.first { $0.campaign == ByteString(campaign) }?.variants.first { $0.variant == ByteString(variant) }
    }

    func campaign(_ result: ExposureResult, _ name: String) -> ExposureCampaign? {
        result.campaigns.first { $0.campaign == ByteString(name) }
    }

    @Test func unitsConversionsOrdersAndRevenue() {
        let result = analyse([
            Self.decision("i1", "c", "A", ts: "2026-03-01T10:00:00Z"),
            Self.decision("i1", "c", "A", ts: "2026-03-01T09:00:00Z"),
            Self.decision("i2", "c", "A"),
            Self.decision("i3", "c", "B"),
            // i1: first exposure 09:00; an order at 08:00 does not count, two later ones do.
            Self.order("o1", "i1", amount: 500, ts: "2026-03-01T08:00:00Z"),
            Self.order("o2", "i1", amount: 700, ts: "2026-03-01T09:00:00Z"),
            Self.order("o3", "i1", amount: 300),
            // A duplicate order line: one order, attributes from the earliest line.
            Self.order("o3", "i1", amount: 999, ts: "2026-03-01T12:00:00Z"),
            Self.order("o4", "i3", amount: 100),
            Self.impression("i1", "c", "A"),
            Self.impression("i9", "c", "A"),
        ])
        let a = row(result, "c", "A")
        #expect(a?.units == 2)
        #expect(a?.convertedUnits == 1)
        #expect(a?.orders == 2)
        #expect(a?.revenueMinor == 1000)
        #expect(a?.conversionRate == 0.5)
        #expect(a?.revenuePerUnit == 500)
        #expect(a?.impressions == 2)
        #expect(row(result, "c", "B")?.revenueMinor == 100)
    }

    @Test func customerUnitsMatchOrdersByCustomerIdAndNeedOne() {
        let result = analyse([
            Self.decision("i1", "c", "A", unit: "customer", customer: "u1"),
            Self.decision("i2", "c", "A", unit: "customer", customer: "u1"),
            Self.decision("i3", "c", "A", unit: "customer"),
            Self.order("o1", "i-other", amount: 250, customer: "u1"),
        ])
        let a = row(result, "c", "A")
        #expect(a?.units == 1)
        #expect(a?.convertedUnits == 1 && a?.orders == 1 && a?.revenueMinor == 250)
        #expect(campaign(result, "c")?.missingCustomer == 1)
        #expect(result.audit.violations.missingCustomer == 1)
    }

    @Test func anOrderMatchesBothItsInstallAndItsCustomerUnit() {
        let result = analyse([
            Self.decision("i1", "c", "A"),
            Self.decision("i2", "c", "A", unit: "customer", customer: "u1"),
            Self.order("o1", "i1", amount: 10, customer: "u1"),
        ])
        #expect(row(result, "c", "A")?.units == 2)
        #expect(row(result, "c", "A")?.orders == 2)
        #expect(row(result, "c", "A")?.revenueMinor == 20)
        #expect(row(result, "c", "A")?.convertedUnits == 2)
    }

    @Test func previewAndDeniedOrdersAreDeduplicatedButNotUsed() {
        let result = analyse([
            Self.decision("i1", "c", "A", ts: "2026-03-01T09:00:00Z"),
            // The earliest line of o1 is preview: the order is not used, even though a later line is clean.
            Self.order("o1", "i1", amount: 10, ts: "2026-03-01T10:00:00Z", preview: true),
            Self.order("o1", "i1", amount: 10, ts: "2026-03-01T11:00:00Z"),
            // Equal ts and amount: not-preview wins the tie, so o2 is used.
            Self.order("o2", "i1", amount: 20, ts: "2026-03-01T10:00:00Z", preview: true),
            Self.order("o2", "i1", amount: 20, ts: "2026-03-01T10:00:00Z"),
            Self.order("o3", "i1", amount: 40, consent: "denied"),
        ])
        #expect(row(result, "c", "A")?.orders == 1)
        #expect(row(result, "c", "A")?.revenueMinor == 20)
        #expect(result.audit.previewTotals[EventType.order.rawValue] == 2)
        #expect(result.audit.consentDeniedTotals[EventType.order.rawValue] == 1)
        #expect(result.audit.leakCheck == 0)
    }

    @Test func unitScopeExcludesEveryEventOfAPreviewInstallOfThatCampaignOnly() {
        let lines = [
            Self.decision("tester", "c", "A", preview: true),
            Self.decision("tester", "c", "A"),
            Self.impression("tester", "c", "A"),
            Self.grant("tester", "c", "A"),
            Self.decision("tester", "other", "A"),
            Self.decision("i1", "c", "A"),
        ]
        let unit = analyse(lines)
        #expect(row(unit, "c", "A")?.units == 1)
        #expect(row(unit, "c", "A")?.impressions == 0)
        #expect(campaign(unit, "c")?.previewContaminated == 3)
        #expect(row(unit, "other", "A")?.units == 1)
        let audit = unit.audit.campaigns.first { $0.campaign == ByteString("c") }
        #expect(audit?.previewDecisions == 1 && audit?.previewInstalls == 1 && audit?.previewContaminated == 3)

        let event = analyse(lines, scope: .event)
        #expect(row(event, "c", "A")?.units == 2)
        #expect(row(event, "c", "A")?.impressions == 1)
        #expect(campaign(event, "c")?.previewContaminated == 0)
    }

    @Test func eitherPreviewFlagIsEnoughAndPreviewWinsOverDenied() {
        let result = analyse([
            Self.decision("t1", "c", "A", preview: true, previewKey: "preview"),
            Self.decision("t2", "c", "A", preview: true, consent: "denied"),
            Self.decision("d1", "c", "A", consent: "denied"),
            Self.impression("d1", "c", "A", consent: "denied"),
        ])
        #expect(row(result, "c", "A") == nil)
        #expect(result.audit.previewTotals[EventType.decision.rawValue] == 2)
        #expect(result.audit.consentDeniedTotals[EventType.decision.rawValue] == 1)
        #expect(result.audit.consentDeniedTotals[EventType.impression.rawValue] == 1)
        #expect(result.audit.campaigns.first?.previewInstalls == 2)
    }

    @Test func aUnitSeeingTwoVariantsIsExcluded() {
        let result = analyse([
            Self.decision("i1", "c", "A"),
            Self.decision("i1", "c", "B"),
            Self.decision("i2", "c", "B"),
        ])
        #expect(row(result, "c", "A") == nil)
        #expect(row(result, "c", "B")?.units == 1)
        #expect(campaign(result, "c")?.multiVariantUnits == 1)
    }

    @Test func liftAgainstTheSingleControl() throws {
        // Control: 4 units, 1 converted (p_c = 0.25). B: 2 units, 2 converted (p_v = 1).
        var lines = (1...4).map { Self.decision("c\($0)", "camp", "ctl", control: true) }
        lines += (1...2).map { Self.decision("b\($0)", "camp", "B") }
        lines += [Self.order("o1", "c1", amount: 1), Self.order("o2", "b1", amount: 1), Self.order("o3", "b2", amount: 1)]
        let result = analyse(lines)
        let b = try #require(row(result, "camp", "B"))
        #expect(row(result, "camp", "ctl")?.control == true)
        #expect(row(result, "camp", "ctl")?.absDiff == nil)
        #expect(b.absDiff == 0.75)
        #expect(b.relLift == 3.0)
        let se = (0.25 * 0.75 / 4).squareRoot()
        #expect(b.ciLow == 0.75 - 1.959963984540054 * se)
        #expect(b.ciHigh == 0.75 + 1.959963984540054 * se)
        #expect(abs(b.pValue! - NormalDistribution.twoSidedPValue(z: 0.75 / se)) < 1e-15)
    }

    @Test func zeroControlRateLeavesRelLiftEmptyAndZeroSELeavesTheIntervalEmpty() throws {
        // Control 0 of 2, B 0 of 2: p_c = 0, se = 0.
        let result = analyse([
            Self.decision("c1", "camp", "ctl", control: true), Self.decision("c2", "camp", "ctl", control: true),
            Self.decision("b1", "camp", "B"), Self.decision("b2", "camp", "B"),
        ])
        let b = try #require(row(result, "camp", "B"))
        #expect(b.absDiff == 0)
        #expect(b.relLift == nil)
        #expect(b.ciLow == nil && b.ciHigh == nil && b.pValue == nil)
    }

    @Test func noLiftWithoutExactlyOneControl() {
        let result = analyse([
            Self.decision("a1", "camp", "A", control: true), Self.decision("b1", "camp", "B", control: true),
            Self.decision("c1", "camp", "C"),
        ])
        #expect(row(result, "camp", "C")?.absDiff == nil)
        #expect(row(result, "camp", "A")?.control == true && row(result, "camp", "B")?.control == true)
    }

    @Test func srmWithEqualSharesAndASingleVariant() throws {
        var lines = (1...60).map { Self.decision("a\($0)", "camp", "A") }
        lines += (1...40).map { Self.decision("b\($0)", "camp", "B") }
        lines.append(Self.decision("s1", "solo", "only"))
        let result = analyse(lines)
        let p = try #require(campaign(result, "camp")?.srmPValue)
        #expect(abs(p - 0.04550026389635857) < 1e-12)
        #expect(row(result, "camp", "B")?.srmPValue == p)
        #expect(campaign(result, "solo")?.srmPValue == nil)
    }

    @Test func srmUsesConfiguredWeightsAndListsConfiguredVariants() throws {
        var lines = (1...30).map { Self.decision("a\($0)", "camp", "A") }
        lines += (1...70).map { Self.decision("b\($0)", "camp", "B") }
        lines += (1...5).map { Self.decision("x\($0)", "camp", "unlisted") }
        let configuration = Configuration(campaigns: [
            .init(id: ByteString("camp"), enabled: true, variants: [
                .init(id: ByteString("A"), weight: 1), .init(id: ByteString("B"), weight: 3),
                .init(id: ByteString("C"), weight: 0),
            ]),
        ])
        let result = analyse(lines, configuration: configuration)
        let p = try #require(campaign(result, "camp")?.srmPValue)
        #expect(abs(p - 0.24821307898992026) < 1e-12)
        #expect(row(result, "camp", "C")?.units == 0)
        #expect(row(result, "camp", "C")?.conversionRate == nil)
        #expect(row(result, "camp", "unlisted")?.units == 5)
    }

    @Test func auditCountsViolationsOnDisabledCampaigns() {
        let configuration = Configuration(campaigns: [
            .init(id: ByteString("off"), enabled: false, variants: []),
            .init(id: ByteString("listed-only"), enabled: true, variants: []),
        ])
        let result = analyse([
            Self.decision("i1", "off", "A"),
            Self.decision("t1", "off", "A", preview: true),
            Self.impression("t1", "off", "A", preview: true),
            Self.grant("t1", "off", "A", preview: true),
            Self.grant("i2", "on", "A", preview: true),
        ], configuration: configuration)
        #expect(result.audit.campaigns.map(\.campaign.description) == ["listed-only", "off", "on"])
        let off = result.audit.campaigns[1].violations
        #expect(off.decisionOnDisabledCampaign == 2)
        #expect(off.previewOnDisabledCampaign == 3)
        #expect(off.previewGrant == 1)
        #expect(result.audit.violations.previewGrant == 2)
        #expect(result.audit.violations.total == 7)
        #expect(result.audit.campaigns[0].violations.total == 0)
    }

    @Test func revenueSumsBeyond64BitsStayExact() {
        var lines = [Self.decision("i1", "c", "A", ts: "2026-03-01T00:00:00Z")]
        lines += (1...1100).map { Self.order("o\($0)", "i1", amount: 9_007_199_254_740_991) }
        let result = analyse(lines)
        #expect(row(result, "c", "A")?.revenueMinor == Int128(9_007_199_254_740_991) * 1100)
    }
}

extension ExposureTests {
    @Test func ordersAtOrAfterEachUnitsFirstExposureAcrossManyCampaigns() {
        // One install exposed in three campaigns at 10:00, 11:00 and 12:00; orders at 9:30, 10:30, 11:30, 12:30.
        var lines = (10...12).map { Self.decision("i1", "c\($0)", "A", ts: "2026-03-01T\($0):00:00Z") }
        lines += [9, 10, 11, 12].map { Self.order("o\($0)", "i1", amount: $0, ts: "2026-03-01T\($0):30:00Z") }
        let result = analyse(lines)
        #expect(row(result, "c10", "A")?.orders == 3 && row(result, "c10", "A")?.revenueMinor == 33)
        #expect(row(result, "c11", "A")?.orders == 2 && row(result, "c11", "A")?.revenueMinor == 23)
        #expect(row(result, "c12", "A")?.orders == 1 && row(result, "c12", "A")?.revenueMinor == 12)
        // An order exactly at the first exposure counts.
        let exact = analyse([Self.decision("i2", "c", "A", ts: "2026-03-01T10:00:00Z"), Self.order("x", "i2", amount: 5, ts: "2026-03-01T12:00:00+02:00")])
        #expect(row(exact, "c", "A")?.orders == 1)
    }
}
