import Foundation
import Testing
@testable import GroveReport

/// Email-like tokens become `[email]` in every name that reaches an output (docs/EVENTS.md, Names in outputs).
@Suite(.serialized)
struct EmailMaskTests {
    /// Expectations worked out by hand against the regular expression's replace-all (and checked
    /// with Python's `re.sub`).
    static let cases: [(String, String)] = [
        ("jane.doe@example.com", "[email]"),
        ("spring-banner", "spring-banner"),
        ("a@b.c@d.e", "[email]@d.e"),
        ("x@y", "x@y"),
        ("@b.com", "@b.com"),
        ("a@b.com.", "[email]."),
        ("a@-b.com", "[email]"),
        ("x a@b.co y c@d.org", "x [email] y [email]"),
        ("a@b@c.com", "a@[email]"),
        ("foo@bar.baz.qux!x", "[email]!x"),
        ("(a@b.c)", "([email])"),
        ("a.@b..c", "a.@b..c"),
        ("é@b.co", "é@b.co"),
        ("ab@c.d-e.f_g", "[email]_g"),
        ("a+b%c_d@x-y.z9", "[email]"),
        ("@@a.b", "@@a.b"),
        ("a@.b.c", "a@.b.c"),
        ("a@b.c.d@e.f", "[email]@e.f"),
        ("a@b_c.d", "a@b_c.d"),
        ("a@b.-", "[email]"),
        ("", ""),
    ]

    @Test(arguments: cases) func masksEveryMaximalToken(_ input: String, _ expected: String) {
        #expect(EmailMask.apply(input) == expected)
        let masked = Array(input.utf8).withUnsafeBufferPointer { EmailMask.masked($0) }
        #expect(masked == (input == expected ? nil : Array(expected.utf8)))
    }

    @Test func campaignsVariantsAndUTMCampaignsAreMaskedBeforeGrouping() throws {
        let state = partialState([
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c1","appKey":"k","slug":"s","route":"app","utm_campaign":"jane@x.com"}"#,
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c2","appKey":"k","slug":"s","route":"store","utm_campaign":"bob@y.org"}"#,
            #"{"type":"decision","ts":"2026-03-01T10:00:00Z","installId":"i1","campaignId":"promo a@b.co","variantId":"v@w.io","isPreview":false}"#,
        ]).joined(scope: .unit)
        let attribution = String(decoding: AttributionReport.csv(state.attributionResult()), as: UTF8.self)
        #expect(attribution.split(separator: "\n").dropFirst() == ["[email],2,1,1,0,0,0,0,0,0,0.0"])
        let exposure = String(decoding: ExposureReport.csv(state.exposureResult(configuration: nil).campaigns), as: UTF8.self)
        #expect(exposure.split(separator: "\n").dropFirst().first?.hasPrefix("promo [email],[email],") == true, "\(exposure)")
    }

    @Test func rejectReasonKeysAreMasked() {
        #expect(rejectReason(#"{"type":"link_open","ts":"2026-03-01T10:00:00Z","openId":"o","appKey":"k","slug":"s","a@b.co":1}"#)
            == "disallowed_field:[email]")
        #expect(rejectReason(#"{"x@y.org":1,"type":"decision","x@y.org":2}"#) == "duplicate_key:[email]")
        // Keys compare unmasked: two different addresses are two keys.
        #expect(rejectReason(#"{"a@y.org":1,"b@y.org":2}"#) == "missing_field:type")
    }

    @Test func configurationIdsAreMasked() throws {
        let configuration = try Configuration.parse(
            Array(#"{"campaigns":[{"id":"c@d.io","variants":[{"id":"v@w.io","weight":1}]}]}"#.utf8), path: "c.json")
        #expect(configuration.campaigns.keys.map(\.description) == ["[email]"])
        #expect(configuration.campaigns[ByteString("[email]")]?.variants.map(\.id.description) == ["[email]"])
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(Array(#"{"campaigns":[{"id":"a@b.io"},{"id":"c@d.io"}]}"#.utf8), path: "c.json")
        }
    }

    @Test func noAddressReachesAnyOutputFile() throws {
        let directory = try temporaryDirectory()
        let lines = [
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c1","appKey":"k","slug":"s","route":"app","utm_campaign":"jane.doe@example.com"}"#,
            #"{"type":"link_open","ts":"2026-03-01T10:01:00Z","openId":"o1","appKey":"k","slug":"s","clickId":"c1","utm_campaign":"bob@y.org"}"#,
            #"{"type":"click_bind","ts":"2026-03-01T10:05:00Z","clickId":"c1","verifiedEmail":"Alice@Example.com"}"#,
            #"{"type":"decision","ts":"2026-03-01T10:00:00Z","installId":"i1","campaignId":"promo for carl@z.net","variantId":"dana@q.de","isPreview":false,"control":true}"#,
            #"{"type":"impression","ts":"2026-03-01T10:00:00Z","installId":"i1","campaignId":"promo for carl@z.net","variantId":"dana@q.de","preview":true}"#,
            #"{"type":"link_open","ts":"2026-03-01T10:00:00Z","openId":"o2","appKey":"k","slug":"s","a@b.co":"x"}"#,
            #"{"type":"click_bind","ts":"2026-03-01T10:00:00Z","clickId":"c9","verifiedEmail":"e@f.gh","x@y.org":1,"x@y.org":2}"#,
        ]
        try writeFile(directory + "/logs/a.ndjson", ndjson(lines))
        try writeFile(directory + "/config.json", Array(#"{"campaigns":[{"id":"eve@conf.io","enabled":false,"variants":[{"id":"fay@conf.io","weight":1}]}]}"#.utf8))
        let result = try execute(
            ["run", "logs", "--out", "out", "--config", "config.json", "--max-reject-rate", "1", "--rejects-raw"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let pattern = try NSRegularExpression(pattern: "[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+")
        var all = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: directory + "/out") {
            let text = String(decoding: try readFile(directory + "/out/" + name), as: UTF8.self)
            all += text
            let range = NSRange(text.startIndex..., in: text)
            #expect(pattern.firstMatch(in: text, range: range) == nil, "\(name) holds an address: \(text)")
        }
        #expect(all.contains("promo for [email]"))
        #expect(all.contains("disallowed_field:[email]"))
        #expect(all.contains("duplicate_key:[email]"))
        let attribution = String(decoding: try readFile(directory + "/out/attribution.csv"), as: UTF8.self)
        #expect(attribution.split(separator: "\n").dropFirst() == ["[email],1,0,1,1,0,0,1,0,0,1.0"])
    }
}
