import Foundation
@testable import GroveReport

// The event lines that the suites build their fixtures from, shared by every test target.
//
// Each builder keeps the name of the suite it came from (`ExposureTests.decision`,
// `AttributionTests.click`…): the suites are extensions of these types in `GroveReportUnitTests`,
// and the other targets, whose state tests name the builders so, call them by that name. The
// types hold no tests themselves, so a target without the suite's extension runs none of them.

/// Grona lines: decisions, impressions, grants and orders (docs/EVENTS.md).
struct ExposureTests {
    static func decision(
        _ install: String, _ campaign: String, _ variant: String, ts: String = "2026-03-01T10:00:00Z",
        preview: Bool = false, control: Bool = false, unit: String? = nil, customer: String? = nil,
        consent: String? = nil, previewKey: String = "isPreview"
    ) -> String {
        var fields = [#""type":"decision""#, #""ts":"\#(ts)""#, #""installId":"\#(install)""#,
                      #""campaignId":"\#(campaign)""#, #""variantId":"\#(variant)""#]
        fields.append(previewKey == "isPreview" ? #""isPreview":\#(preview)"# : #""isPreview":false,"preview":\#(preview)"#)
        if control { fields.append(#""control":true"#) }
        if let unit { fields.append(#""unit":"\#(unit)""#) }
        if let customer { fields.append(#""customerId":"\#(customer)""#) }
        if let consent { fields.append(#""consent":"\#(consent)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func impression(_ install: String, _ campaign: String, _ variant: String, preview: Bool = false, consent: String = "granted") -> String {
        #"{"type":"impression","ts":"2026-03-01T10:00:00Z","installId":"\#(install)","campaignId":"\#(campaign)","variantId":"\#(variant)","preview":\#(preview),"consent":"\#(consent)"}"#
    }

    static func grant(_ install: String, _ campaign: String, _ variant: String, preview: Bool = false) -> String {
        #"{"type":"grant","ts":"2026-03-01T10:00:00Z","installId":"\#(install)","campaignId":"\#(campaign)","variantId":"\#(variant)","offerId":"f","preview":\#(preview)}"#
    }

    static func order(
        _ id: String, _ install: String, amount: Int, ts: String = "2026-03-01T11:00:00Z", customer: String? = nil,
        preview: Bool = false, consent: String? = nil
    ) -> String {
        let customerPart = customer.map { #","customerId":"\#($0)""# } ?? ""
        let consentPart = consent.map { #","consent":"\#($0)""# } ?? ""
        return #"{"type":"order","ts":"\#(ts)","installId":"\#(install)","orderId":"\#(id)","amountMinor":\#(amount),"preview":\#(preview)\#(customerPart)\#(consentPart)}"#
    }
}

/// FunnelsGrove lines: clicks, opens and bindings (docs/EVENTS.md).
struct AttributionTests {
    static func click(_ id: String, _ ts: String, route: String = "app", campaign: String? = nil, slug: String = "s") -> String {
        let utm = campaign.map { #","utm_campaign":"\#($0)""# } ?? ""
        return #"{"type":"link_click","ts":"\#(ts)","clickId":"\#(id)","appKey":"k","slug":"\#(slug)","route":"\#(route)"\#(utm)}"#
    }

    static func open(_ id: String, _ ts: String, click: String? = nil, slug: String = "s", context: String? = nil, campaign: String? = nil) -> String {
        let clickPart = click.map { #","clickId":"\#($0)""# } ?? ""
        let contextPart = context.map { #","context":"\#($0)""# } ?? ""
        let utm = campaign.map { #","utm_campaign":"\#($0)""# } ?? ""
        return #"{"type":"link_open","ts":"\#(ts)","openId":"\#(id)","appKey":"k","slug":"\#(slug)"\#(clickPart)\#(contextPart)\#(utm)}"#
    }

    static func bind(_ click: String, _ ts: String, _ email: String) -> String {
        #"{"type":"click_bind","ts":"\#(ts)","clickId":"\#(click)","verifiedEmail":"\#(email)"}"#
    }
}

/// `preview_link` lines and the URLs they carry (docs/EVENTS.md).
struct PreviewLinkTests {
    static let pairURL = "acmemarket://grona-preview?code=AB12-cd34"
    static let clearURL = "acmemarket://grona-preview?clear=1"
    static let malformedURL = "acmemarket://grona-preview?code=short"
    static let foreignURL = "https://shop.example.com/preview?code=AB12-cd34"

    /// A `preview_link` line; `extra` is appended as raw JSON members.
    static func link(
        _ install: String = "i1", url: String = pairURL, outcome: String = "paired", campaign: String? = "c",
        variant: String? = "A", ts: String = "2026-03-01T10:00:00Z", pin: String? = "2026-03-01T18:00:00Z",
        consent: String? = nil, extra: String = ""
    ) -> String {
        var fields = [#""type":"preview_link""#, #""ts":"\#(ts)""#, #""installId":"\#(install)""#]
        if let consent { fields.append(#""consent":"\#(consent)""#) }
        fields += [#""url":"\#(url)""#, #""outcome":"\#(outcome)""#]
        if let campaign { fields.append(#""campaignId":"\#(campaign)""#) }
        if let variant { fields.append(#""variantId":"\#(variant)""#) }
        if let pin { fields.append(#""pinExpiresAt":"\#(pin)""#) }
        return "{" + (fields + (extra.isEmpty ? [] : [extra])).joined(separator: ",") + "}"
    }
}

/// Four attribution and four exposure campaigns of known weights, for `--max-campaigns`.
struct CampaignFoldTests {
    typealias A = AttributionTests
    typealias E = ExposureTests

    /// Four attribution campaigns: beta 3 clicks, alpha and gamma 2 (a tie), delta 1.
    static let attributionLines = [
        A.click("k1", "2026-03-01T10:00:00Z", route: "app", campaign: "alpha"),
        A.click("k2", "2026-03-01T10:00:00Z", route: "store", campaign: "alpha"),
        A.click("k3", "2026-03-01T10:00:00Z", campaign: "beta"),
        A.click("k4", "2026-03-01T10:00:00Z", campaign: "beta"),
        A.click("k5", "2026-03-01T10:00:00Z", campaign: "beta"),
        A.click("k6", "2026-03-01T10:00:00Z", route: "store", campaign: "gamma"),
        A.click("k7", "2026-03-01T10:00:00Z", route: "app", campaign: "gamma"),
        A.click("k8", "2026-03-01T10:00:00Z", route: "store", campaign: "delta"),
        A.open("o1", "2026-03-01T10:01:00Z", click: "k1"),
        A.open("o2", "2026-03-01T10:01:00Z", click: "k3"),
        A.open("o3", "2026-03-01T10:01:00Z", click: "k6"),
        A.open("o3", "2026-03-01T10:02:00Z", click: "k6"),
        A.bind("k1", "2026-03-01T10:02:00Z", "a@b.co"),
        A.bind("k6", "2026-03-01T10:02:00Z", "c@d.co"),
        A.bind("k6", "2026-03-01T10:03:00Z", "e@f.co"),
        A.bind("k8", "2026-03-01T10:02:00Z", "g@h.co"),
    ]

    /// Four exposure campaigns by total units: e1 5, e3 and e4 4 (a tie), e2 1. The audit ranks
    /// them otherwise: e4 has a violation, e2 two preview events, e3 one, e1 none.
    static let exposureLines: [String] = {
        var lines = ["a1", "a2", "a3"].map { E.decision($0, "e1", "A", control: true) }
        lines += ["b1", "b2"].map { E.decision($0, "e1", "B") }
        lines.append(E.order("ob1", "b1", amount: 100))
        // e2: one unit, which converts and saw an impression; m1 saw two variants.
        lines += [E.decision("x1", "e2", "A"), E.decision("m1", "e2", "A"), E.decision("m1", "e2", "B")]
        lines += [E.order("ox1", "x1", amount: 300), E.impression("x1", "e2", "A")]
        lines += [E.impression("q2", "e2", "A", preview: true), E.impression("q2", "e2", "A", preview: true)]
        lines += [E.decision("y1", "e3", "X"), E.decision("y2", "e3", "X"), E.decision("y3", "e3", "Y"), E.decision("y4", "e3", "Y")]
        lines.append(E.impression("q3", "e3", "X", preview: true))
        lines += ["z1", "z2", "z3", "z4"].map { E.decision($0, "e4", "Z") }
        lines.append(E.order("oz1", "z1", amount: 100))
        // e4: a customer-unit decision without a customer; a tester's install, contaminated.
        lines.append(E.decision("z9", "e4", "Z", unit: "customer"))
        lines += [E.decision("p1", "e4", "Z", preview: true), E.decision("p1", "e4", "Z")]
        return lines
    }()

    static func joined(_ lines: [String]) -> JoinedState {
        partialState(lines).joined(scope: .unit)
    }

    static func names(_ result: AttributionResult) -> [String] {
        result.campaigns.map(\.campaign.description)
    }
}

/// Generated lines of every kind, the same for every suite that reads them.
struct PropertyTests {
    /// Generated once for the property, stage and end-to-end tests. A generation failure is kept and
    /// rethrown by `lines`, so each test that reads them fails instead of comparing empty with empty.
    static let generated = Result { try generatedLines(events: 6000, seed: 42) }
    static var lines: [String] { get throws { try generated.get() } }
}
