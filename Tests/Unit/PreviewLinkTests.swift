import Testing
@testable import GroveReport

/// `preview_link` lines (docs/EVENTS.md) and what the audit makes of them (docs/AUDIT.md), on
/// hand-computed fixtures.
extension PreviewLinkTests {
    func audit(_ lines: [String], scope: PreviewScope = .unit) -> PreviewAudit {
        partialState(lines).joined(scope: scope).exposureResult(configuration: nil).audit
    }

    func campaign(_ audit: PreviewAudit, _ name: String) -> AuditCampaign? {
        audit.campaigns.first { $0.campaign == ByteString(name) }
    }

    // MARK: Validation

    @Test func aPairedLinkIsAcceptedWithItsKindAndNoURL() throws {
        let (event, symbols) = try #require(acceptedEventWithSymbols(Self.link()))
        guard case .previewLink(let link) = event else {
            Issue.record("not a preview_link: \(event)")
            return
        }
        #expect(link.kind == .pair)
        #expect(link.outcome == .paired)
        #expect(link.campaignId.map(symbols.string) == ByteString("c"))
        // 2026-03-01T18:00:00Z: 20,513 days after 1970-01-01, plus 18 hours.
        #expect(link.pinExpiresAt == Instant(seconds: 20_513 * 86_400 + 18 * 3600, nanoseconds: 0))
        // The URL holds a credential: it is never interned.
        #expect(symbols.lookup(ByteString(Self.pairURL)) == nil)
    }

    @Test func fieldsAreCheckedInTableOrderAndRequiredWhenPaired() {
        let cases: [(String, String?)] = [
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","url":"x","outcome":"ignored"}"#, "missing_field:installId"),
            (Self.link(consent: "yes"), "bad_field:consent"),
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","installId":"i","consent":"yes","outcome":"x"}"#, "bad_field:consent"),
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","installId":"i","outcome":"bogus"}"#, "missing_field:url"),
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","installId":"i","url":null,"outcome":"ignored"}"#, "missing_field:url"),
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","installId":"i","url":7,"outcome":"ignored"}"#, "bad_field:url"),
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","installId":"i","url":"x"}"#, "missing_field:outcome"),
            (Self.link(outcome: "PAIRED", campaign: "7"), "bad_field:outcome"),
            (Self.link(campaign: nil), "missing_field:campaignId"),
            (Self.link(variant: nil), "missing_field:variantId"),
            (Self.link(pin: nil), "missing_field:pinExpiresAt"),
            (Self.link(pin: "tomorrow"), "bad_field:pinExpiresAt"),
            (Self.link(campaign: nil, variant: nil, pin: nil), "missing_field:campaignId"),
            (Self.link(extra: #""reason":42"#), "bad_field:reason"),
            // Not paired: the three are optional, but checked when present.
            (Self.link(outcome: "rejected", campaign: nil, variant: nil, pin: nil), nil),
            (Self.link(outcome: "cleared", campaign: nil, variant: nil, pin: "soon"), "bad_field:pinExpiresAt"),
            (#"{"type":"preview_link","ts":"2026-03-01T10:00:00Z","installId":"i","url":"x","outcome":"ignored","campaignId":""}"#, "bad_field:campaignId"),
            (Self.link(outcome: "ignored", campaign: nil, variant: nil, pin: nil, extra: #""reason":"exchange in flight""#), nil),
            // isPreview and preview are not fields of preview_link: never checked.
            (Self.link(extra: #""isPreview":"yes","preview":1"#), nil),
        ]
        for (line, expected) in cases {
            #expect(rejectReason(line) == expected, "\(line)")
        }
    }

    @Test func theURLIsTextOfAtMost4096Bytes() {
        let longest = "https://x/" + String(repeating: "a", count: 4086)
        #expect(longest.utf8.count == 4096)
        #expect(rejectReason(Self.link(url: longest, outcome: "rejected")) == nil)
        #expect(rejectReason(Self.link(url: longest + "a", outcome: "rejected")) == "bad_field:url")
        #expect(rejectReason(Self.link(url: "", outcome: "ignored")) == nil)
    }

    @Test func linksCountAsAcceptedButNeverAsPreviewOrConsentDenied() {
        let state = partialState([
            Self.link(extra: #""isPreview":true"#),
            Self.link("i2", consent: "denied", extra: #""preview":true"#),
        ])
        #expect(state.accounting.accepted(.previewLink) == 2)
        let audit = audit([Self.link(extra: #""isPreview":true"#), Self.link("i2", consent: "denied", extra: #""preview":true"#)])
        #expect(audit.previewTotals == [0, 0, 0, 0])
        #expect(audit.consentDeniedTotals == [0, 0, 0, 0])
        #expect(audit.leakCheck == 0)
    }

    // MARK: The audit

    @Test func linkTotalsAreByKindAndOutcome() {
        let audit = audit([
            Self.link(),
            Self.link("i2"),
            Self.link(url: Self.clearURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.malformedURL, outcome: "rejected", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.foreignURL, outcome: "ignored", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.foreignURL, outcome: "ignored", campaign: nil, variant: nil, pin: nil),
        ])
        var expected = [PreviewLinkKind: [PreviewLinkOutcome: Int]]()
        expected[.pair] = [.paired: 2]
        expected[.clear] = [.cleared: 1]
        expected[.malformed] = [.rejected: 1]
        expected[.foreign] = [.ignored: 2]
        for kind in PreviewLinkKind.allCases {
            for outcome in PreviewLinkOutcome.allCases {
                #expect(audit.previewLinks[kind, outcome] == expected[kind]?[outcome] ?? 0, "\(kind.name) \(outcome.name)")
            }
        }
        #expect(audit.previewLinks.total == 6)
    }

    @Test func pairingsCountPairedLinksOfTheCampaignAndMakeItsInstallAPreviewInstall() {
        let audit = audit([
            Self.link("i1", campaign: "c"),
            Self.link("i1", campaign: "c"),
            Self.link("i2", campaign: "c"),
            // Only paired links name a campaign the audit lists.
            Self.link("i3", url: Self.clearURL, outcome: "cleared", campaign: "other", variant: "A", pin: nil),
            // A paired link makes a preview install whatever its kind or consent.
            Self.link("i4", url: Self.foreignURL, campaign: "only-links", consent: "denied"),
        ])
        #expect(audit.campaigns.map(\.campaign.description) == ["c", "only-links"])
        #expect(campaign(audit, "c")?.previewPairings == 3)
        #expect(campaign(audit, "c")?.previewInstalls == 2)
        #expect(campaign(audit, "c")?.previewDecisions == 0)
        #expect(campaign(audit, "only-links")?.previewPairings == 1)
        #expect(campaign(audit, "only-links")?.previewInstalls == 1)
    }

    @Test func invalidLinkAcceptedIsPairingOrClearingOnAMalformedOrForeignLink() {
        let noCampaign = (campaign: String?.none, variant: String?.none, pin: String?.none)
        let violating = [
            Self.link(url: Self.malformedURL, outcome: "paired"),
            Self.link(url: Self.foreignURL, outcome: "paired"),
            Self.link(url: Self.malformedURL, outcome: "cleared", campaign: noCampaign.campaign, variant: nil, pin: nil),
            Self.link(url: Self.foreignURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
        ]
        let fine = [
            Self.link(url: Self.malformedURL, outcome: "rejected", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.foreignURL, outcome: "ignored", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.pairURL, outcome: "paired"),
            Self.link(url: Self.clearURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
        ]
        let result = audit(violating + fine)
        #expect(result.violations.links.invalidLinkAccepted == 4)
        // Per campaign: the paired ones only.
        #expect(campaign(result, "c")?.violations.links.invalidLinkAccepted == 2)
        #expect(result.violations.links.wrongLinkOutcome == 0)
        #expect(audit(fine).violations.total == 0)
    }

    @Test func wrongLinkOutcomeIsClearingOnAPairLinkOrPairingOnAClearLink() {
        let result = audit([
            Self.link(url: Self.pairURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.clearURL, outcome: "paired"),
            Self.link(url: Self.pairURL, outcome: "paired"),
            Self.link(url: Self.clearURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.pairURL, outcome: "rejected", campaign: nil, variant: nil, pin: nil),
            Self.link(url: Self.clearURL, outcome: "ignored", campaign: nil, variant: nil, pin: nil),
            // A malformed link cleared is invalid_link_accepted, not wrong_link_outcome.
            Self.link(url: Self.malformedURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
        ])
        #expect(result.violations.links.wrongLinkOutcome == 2)
        #expect(campaign(result, "c")?.violations.links.wrongLinkOutcome == 1)
        #expect(result.violations.links.invalidLinkAccepted == 1)
    }

    @Test func pairedWhileDeniedNeedsBothPairedAndDenied() {
        let result = audit([
            Self.link("i1", consent: "denied"),
            Self.link("i2", consent: "granted"),
            Self.link("i3", consent: "unknown"),
            Self.link("i4"),
            Self.link("i5", outcome: "rejected", campaign: nil, variant: nil, pin: nil, consent: "denied"),
        ])
        #expect(result.violations.links.pairedWhileDenied == 1)
        #expect(campaign(result, "c")?.violations.links.pairedWhileDenied == 1)
        #expect(result.violations.total == 1)
    }

    @Test func pinTooLongIsMoreThan86400SecondsAtNanosecondPrecision() {
        let cases: [(ts: String, pin: String, tooLong: Bool)] = [
            ("2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", false),
            ("2026-03-01T10:00:00Z", "2026-03-02T10:00:00.000000001Z", true),
            ("2026-03-01T10:00:00Z", "2026-03-02T09:59:59.999999999Z", false),
            ("2026-03-01T10:00:00.5Z", "2026-03-02T10:00:00.500000000Z", false),
            ("2026-03-01T10:00:00.5Z", "2026-03-02T10:00:00.500000001Z", true),
            // Offsets: instants compare, not wall clocks.
            ("2026-03-01T12:00:00+02:00", "2026-03-02T10:00:00Z", false),
            ("2026-03-01T12:00:00+02:00", "2026-03-02T05:00:00.000000001-05:00", true),
            ("2026-03-01T10:00:00Z", "2026-03-02T11:00:00+01:00", false),
            // Across a leap day, and a pin already expired.
            ("2028-02-28T23:00:00Z", "2028-02-29T23:00:00Z", false),
            ("2028-02-28T23:00:00Z", "2028-03-01T00:00:00Z", true),
            ("2026-03-01T10:00:00Z", "2026-03-01T09:00:00Z", false),
        ]
        for (ts, pin, tooLong) in cases {
            let result = audit([Self.link(ts: ts, pin: pin)])
            #expect(result.violations.links.pinTooLong == (tooLong ? 1 : 0), "\(ts) → \(pin)")
            #expect(campaign(result, "c")?.violations.links.pinTooLong == (tooLong ? 1 : 0), "\(ts) → \(pin)")
        }
        // Only paired links have a pin to check.
        let cleared = Self.link(url: Self.clearURL, outcome: "cleared", campaign: nil, variant: nil, pin: "2027-01-01T00:00:00Z")
        #expect(audit([cleared]).violations.links.pinTooLong == 0)
    }

    @Test func oneLinkMayBreakSeveralRules() {
        let result = audit([Self.link(url: Self.foreignURL, pin: "2026-03-05T10:00:00Z", consent: "denied")])
        #expect(result.violations.links == {
            var expected = LinkViolations()
            expected.invalidLinkAccepted = 1
            expected.pairedWhileDenied = 1
            expected.pinTooLong = 1
            return expected
        }())
        #expect(result.violations.total == 3)
    }

    @Test func unitScopeExcludesThePairedInstallsOtherEventsOfTheCampaign() {
        let lines = [
            Self.link("i1", campaign: "c"),
            ExposureTests.decision("i1", "c", "A"),
            ExposureTests.impression("i1", "c", "A"),
            ExposureTests.decision("i1", "d", "A"),
            ExposureTests.decision("i2", "c", "A"),
        ]
        let unit = partialState(lines).joined(scope: .unit).exposureResult(configuration: nil)
        let event = partialState(lines).joined(scope: .event).exposureResult(configuration: nil)
        func row(_ result: ExposureResult, _ name: String) -> ExposureRow? {
            result.campaigns.first { $0.campaign == ByteString(name) }?.variants.first
        }
        #expect(row(unit, "c")?.units == 1)
        #expect(row(unit, "c")?.impressions == 0)
        #expect(campaign(unit.audit, "c")?.previewContaminated == 2)
        // Another campaign of the same install is untouched.
        #expect(row(unit, "d")?.units == 1)
        #expect(row(event, "c")?.units == 2)
        #expect(row(event, "c")?.impressions == 1)
        #expect(campaign(event.audit, "c")?.previewContaminated == 0)
        #expect(campaign(event.audit, "c")?.previewInstalls == 1)
    }

    @Test func theAuditJSONWritesEveryCountInTheSpecsKeyOrder() {
        let json = String(decoding: PreviewAuditReport.json(audit([Self.link()])), as: UTF8.self)
        let campaignKeys = ["campaign", "preview_decisions", "preview_impressions", "preview_grants", "preview_pairings",
                            "preview_installs", "preview_contaminated", "violations"]
        let violationKeys = AuditViolations.names
        let totalsKeys = ["preview", "consent_denied", "preview_links"]
        #expect(violationKeys == ["preview_grant", "missing_customer", "preview_unidentified_customer",
                                  "preview_on_disabled_campaign", "decision_on_disabled_campaign", "invalid_link_accepted",
                                  "wrong_link_outcome", "paired_while_denied", "pin_too_long"])
        let topLevel = ["campaigns", "totals", "violations", "leak_check"].map { "\n  \"\($0)\":" }
        for keys in [campaignKeys, violationKeys, totalsKeys, ["pair", "clear", "malformed", "foreign"],
                     ["paired", "cleared", "rejected", "ignored"]].map({ $0.map { "\"\($0)\":" } }) + [topLevel] {
            let positions = keys.map { json.range(of: $0)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "\(keys)")
            #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(keys) out of order")
        }
        #expect(json.components(separatedBy: "\"rejected\": 0").count - 1 == 4)
        #expect(json.components(separatedBy: "\"pin_too_long\": 0").count - 1 == 2)
        #expect(json.components(separatedBy: "\"preview_unidentified_customer\": 0").count - 1 == 2)
    }

    @Test func stageRecordsCarryLinkTotalsPairingsAndViolations() throws {
        let lines = [
            Self.link("i1", pin: "2026-03-05T10:00:00Z", consent: "denied"),
            Self.link("i2", url: Self.malformedURL, outcome: "cleared", campaign: nil, variant: nil, pin: nil),
            ExposureTests.decision("i1", "c", "A"),
            ExposureTests.decision("i2", "c", "A"),
        ]
        let state = partialState(lines)
        var decoder = RecordDecoder()
        for record in RecordEncoder.encode(state).split(separator: 0x0A) { try decoder.read(record) }
        #expect(renderedReports(decoder.state) == renderedReports(state))
        let audit = decoder.state.joined(scope: .unit).exposureResult(configuration: nil).audit
        #expect(audit.previewLinks[.malformed, .cleared] == 1)
        #expect(campaign(audit, "c")?.previewPairings == 1)
        #expect(audit.violations.links.invalidLinkAccepted == 1)
        #expect(audit.violations.links.pinTooLong == 1)
    }
}
