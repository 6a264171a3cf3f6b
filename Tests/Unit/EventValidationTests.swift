import Testing
@testable import GroveReport

/// One hand-written line for every reject reason of docs/EVENTS.md, in precedence order.
struct EventValidationTests {
    static let ts = #""ts":"2026-03-01T10:00:00Z""#
    static let decision = #"{"type":"decision",\#(ts),"installId":"i1","campaignId":"c1","variantId":"v1","isPreview":false}"#

    @Test("each malformed line gets its precise reason", arguments: [
        // invalid_json
        ("{\"type\":\"decision\"", "invalid_json"),
        ("[1,2]", "invalid_json"),
        ("\"just a string\"", "invalid_json"),
        ("{\"a\":NaN}", "invalid_json"),
        ("{\"a\":Infinity}", "invalid_json"),
        ("{\"a\":-Infinity}", "invalid_json"),
        ("{\"a\":\"\\ud800\"}", "invalid_json"),
        ("{\"a\":\"\\udc00\\ud800\"}", "invalid_json"),
        ("{\"a\":1} x", "invalid_json"),
        ("{\"a\":1}{}", "invalid_json"),
        ("{\"a\":01}", "invalid_json"),
        ("{\"a\":1.}", "invalid_json"),
        ("{\"a\":.5}", "invalid_json"),
        ("{\"a\":+1}", "invalid_json"),
        ("{\"a\":1e}", "invalid_json"),
        ("{\"a\":tru}", "invalid_json"),
        ("{\"a\":\"tab\there\"}", "invalid_json"),
        ("{\"a\":\"\\x\"}", "invalid_json"),
        ("{'a':1}", "invalid_json"),
        ("{\"a\":1,}", "invalid_json"),
        ("{\"a\" 1}", "invalid_json"),
        // duplicate keys: the first key that repeats an earlier one, compared after unescaping
        ("{\"a\":1,\"b\":2,\"b\":3,\"a\":4}", "duplicate_key:b"),
        ("{\"type\":\"x\",\"t\\u0079pe\":\"y\"}", "duplicate_key:type"),
        // type
        ("{\"ts\":\"2026-03-01T10:00:00Z\"}", "missing_field:type"),
        ("{\"type\":null}", "missing_field:type"),
        ("{\"type\":7}", "bad_field:type"),
        // ts
        ("{\"type\":\"decision\"}", "missing_field:ts"),
        ("{\"type\":\"decision\",\"ts\":null}", "missing_field:ts"),
        ("{\"type\":\"decision\",\"ts\":1700000000}", "bad_field:ts"),
        ("{\"type\":\"decision\",\"ts\":\"2026-02-30T00:00:00Z\"}", "bad_field:ts"),
        // allowlists
        ("{\"type\":\"link_open\",\(ts),\"openId\":\"o\",\"appKey\":\"a\",\"slug\":\"s\",\"email\":\"x@y.z\"}", "disallowed_field:email"),
        ("{\"type\":\"link_open\",\(ts),\"userId\":\"u\",\"projectId\":\"p\"}", "disallowed_field:userId"),
        ("{\"type\":\"click_bind\",\(ts),\"clickId\":\"c\",\"verifiedEmail\":\"a@b\",\"secret\":\"s\"}", "disallowed_field:secret"),
        // Grona common fields
        ("{\"type\":\"decision\",\(ts)}", "missing_field:installId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"\"}", "bad_field:installId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"\(String(repeating: "x", count: 257))\"}", "bad_field:installId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":5}", "bad_field:installId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"customerId\":\"\"}", "bad_field:customerId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"consent\":\"yes\"}", "bad_field:consent"),
        // decision fields in table order
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\"}", "missing_field:campaignId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\"}", "missing_field:variantId"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\"}", "missing_field:isPreview"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\",\"isPreview\":\"true\"}", "bad_field:isPreview"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\",\"isPreview\":false,\"preview\":1}", "bad_field:preview"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\",\"isPreview\":false,\"control\":\"no\"}", "bad_field:control"),
        ("{\"type\":\"decision\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\",\"isPreview\":false,\"unit\":\"device\"}", "bad_field:unit"),
        // impression, order, grant
        ("{\"type\":\"impression\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\"}", "missing_field:preview"),
        ("{\"type\":\"impression\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\",\"preview\":false,\"isPreview\":0}", "bad_field:isPreview"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\"}", "missing_field:orderId"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\"}", "missing_field:amountMinor"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":1.5}", "bad_field:amountMinor"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":-1}", "bad_field:amountMinor"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":1e3}", "bad_field:amountMinor"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":9007199254740992}", "bad_field:amountMinor"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":\"5\"}", "bad_field:amountMinor"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":5}", "missing_field:preview"),
        ("{\"type\":\"order\",\(ts),\"installId\":\"i\",\"orderId\":\"o\",\"amountMinor\":5,\"preview\":false,\"currency\":7}", "bad_field:currency"),
        ("{\"type\":\"grant\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\"}", "missing_field:offerId"),
        ("{\"type\":\"grant\",\(ts),\"installId\":\"i\",\"campaignId\":\"c\",\"variantId\":\"v\",\"offerId\":\"f\"}", "missing_field:preview"),
        // FunnelsGrove
        ("{\"type\":\"link_click\",\(ts)}", "missing_field:clickId"),
        ("{\"type\":\"link_click\",\(ts),\"clickId\":\"c\",\"appKey\":\"a\"}", "missing_field:slug"),
        ("{\"type\":\"link_click\",\(ts),\"clickId\":\"c\",\"appKey\":\"a\",\"slug\":\"s\"}", "missing_field:route"),
        ("{\"type\":\"link_click\",\(ts),\"clickId\":\"c\",\"appKey\":\"a\",\"slug\":\"s\",\"route\":\"web\"}", "bad_field:route"),
        ("{\"type\":\"link_click\",\(ts),\"clickId\":\"c\",\"appKey\":\"a\",\"slug\":\"s\",\"route\":\"app\",\"utm_term\":5}", "bad_field:utm_term"),
        ("{\"type\":\"link_click\",\(ts),\"clickId\":\"c\",\"appKey\":\"a\",\"slug\":\"s\",\"route\":\"app\",\"utm_source\":\"\(String(repeating: "u", count: 4097))\"}", "bad_field:utm_source"),
        ("{\"type\":\"link_open\",\(ts),\"openId\":\"o\",\"appKey\":\"a\"}", "missing_field:slug"),
        ("{\"type\":\"link_open\",\(ts),\"openId\":\"o\",\"appKey\":\"a\",\"slug\":\"s\",\"clickId\":\"\"}", "bad_field:clickId"),
        ("{\"type\":\"link_open\",\(ts),\"openId\":\"o\",\"appKey\":\"a\",\"slug\":\"s\",\"context\":{}}", "bad_field:context"),
        ("{\"type\":\"link_open\",\(ts),\"openId\":\"o\",\"appKey\":\"a\",\"slug\":\"s\",\"destination\":[]}", "bad_field:destination"),
        ("{\"type\":\"click_bind\",\(ts),\"clickId\":\"c\"}", "missing_field:verifiedEmail"),
        ("{\"type\":\"click_bind\",\(ts),\"clickId\":\"c\",\"verifiedEmail\":\"no-at-sign\"}", "bad_field:verifiedEmail"),
        ("{\"type\":\"click_bind\",\(ts),\"clickId\":\"c\",\"verifiedEmail\":\"a@b@c\"}", "bad_field:verifiedEmail"),
        ("{\"type\":\"click_bind\",\(ts),\"clickId\":\"c\",\"verifiedEmail\":\" @b \"}", "bad_field:verifiedEmail"),
        ("{\"type\":\"click_bind\",\(ts),\"clickId\":\"c\",\"verifiedEmail\":\"a@\"}", "bad_field:verifiedEmail"),
    ])
    func rejectsWithReason(line: String, reason: String) {
        #expect(rejectReason(line) == reason)
    }

    @Test func nestingDeeperThan64IsInvalidButDepth64IsAccepted() {
        func line(depth: Int) -> String {
            // The top-level object is depth 1; each "x":[ adds one level.
            let nested = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
            return #"{"type":"heartbeat","x":\#(nested)}"#
        }
        #expect(classify(line(depth: 64)) == .ignored(.unknownType))
        #expect(rejectReason(line(depth: 65)) == "invalid_json")
    }

    @Test func invalidUTF8IsInvalidJSON() {
        let prefix = Array(#"{"type":"heartbeat","x":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(classify(bytes: prefix + bad + suffix) == .rejected(.invalidJSON))
        }
        #expect(classify(bytes: prefix + [0xE2, 0x82, 0xAC] + suffix) == .ignored(.unknownType))
    }

    @Test func unknownTypeIsIgnoredBeforeAnyLaterCheck() {
        #expect(classify(#"{"type":"heartbeat"}"#) == .ignored(.unknownType))
        #expect(classify(#"{"type":"heartbeat","ts":"garbage","email":"a@b"}"#) == .ignored(.unknownType))
        #expect(classify(#"{"type":"Decision"}"#) == .ignored(.unknownType))
    }

    @Test func blankLinesAreIgnored() {
        #expect(classify("") == .ignored(.blank))
        #expect(classify(" \t\r ") == .ignored(.blank))
        #expect(rejectReason("\u{0B}") == "invalid_json")
    }

    @Test func verifiedEmailsAreTrimmedAndLowerCasedWithExactlyOneAt() {
        func normalized(_ email: String) -> String? {
            Array(email.utf8).withUnsafeBufferPointer { EmailNormalizer.normalize($0) { String(decoding: $0, as: UTF8.self) } }
        }
        #expect(normalized(" \tAna.B@Example.COM\r\n") == "ana.b@example.com")
        #expect(normalized("x@y") == "x@y")
        #expect(normalized("ÉMILE@Ünï.test") == "Émile@Ünï.test", "ASCII letters only")
        for bad in ["", "   ", "no-at", "@b", "a@", "a@b@c", " @b "] {
            #expect(normalized(bad) == nil, "\(bad)")
        }
    }

    @Test func nullCountsAsAbsentForOptionalFieldsAndAllowlists() {
        let open = #"{"type":"link_open",\#(Self.ts),"openId":"o","appKey":"a","slug":"s","email":null,"clickId":null}"#
        guard case .linkOpen(let event)? = acceptedEvent(open) else {
            Issue.record("expected an accepted link_open")
            return
        }
        #expect(event.clickId == nil)
    }

    @Test func decisionDefaultsAndPreviewFlags() throws {
        guard case .decision(let plain)? = acceptedEvent(Self.decision) else {
            Issue.record("expected a decision")
            return
        }
        #expect(plain.unit == .install && !plain.control && !plain.isPreview && plain.subject.consent == .unknown)
        let flagged = #"{"type":"decision",\#(Self.ts),"installId":"i","campaignId":"c","variantId":"v","isPreview":false,"preview":true,"unit":"customer","control":true,"consent":"denied"}"#
        guard case .decision(let preview)? = acceptedEvent(flagged) else {
            Issue.record("expected a decision")
            return
        }
        #expect(preview.isPreview && preview.control && preview.unit == .customer && preview.subject.consent == .denied)
    }

    @Test func integerLimitsAndNegativeZero() {
        func order(_ amount: String) -> Event? {
            acceptedEvent(#"{"type":"order",\#(Self.ts),"installId":"i","orderId":"o","amountMinor":\#(amount),"preview":false}"#)
        }
        guard case .order(let max)? = order("9007199254740991"), case .order(let zero)? = order("-0") else {
            Issue.record("expected accepted orders")
            return
        }
        #expect(max.amountMinor == 9_007_199_254_740_991)
        #expect(zero.amountMinor == 0)
    }

    @Test func emailIsTrimmedAndLowerCased() {
        let line = #"{"type":"click_bind",\#(Self.ts),"clickId":"c","verifiedEmail":" \tAlice@Example.COM\r\n"}"#
        guard case (.clickBind(let bind), let symbols)? = acceptedEventWithSymbols(line) else {
            Issue.record("expected a click_bind")
            return
        }
        #expect(symbols.string(bind.normalizedEmail) == ByteString("alice@example.com"))
    }

    @Test func emptyUTMCountsAsAbsentButEmptyContextIsKept() {
        let line = #"{"type":"link_open",\#(Self.ts),"openId":"o","appKey":"a","slug":"s","utm_campaign":"","context":""}"#
        guard case (.linkOpen(let open), let symbols)? = acceptedEventWithSymbols(line) else {
            Issue.record("expected a link_open")
            return
        }
        #expect(open.utm.campaign == nil)
        #expect(open.context.map(symbols.string) == ByteString(""))
    }

    @Test func escapedValuesAreUnescapedBeforeChecks() {
        let line = #"{"type":"link_click","ts":"2026-03-01T10:00:00\u005a","clickId":"c\u00e9","appKey":"a","slug":"s","route":"\u0061pp"}"#
        guard case (.linkClick(let click), let symbols)? = acceptedEventWithSymbols(line) else {
            Issue.record("expected a link_click")
            return
        }
        #expect(symbols.string(click.clickId) == ByteString("cé"))
        #expect(click.route == .app)
    }

    @Test func idsAreMeasuredInBytesAfterUnescaping() {
        // 128 two-byte characters = 256 bytes: the limit exactly.
        let id = String(repeating: "\\u00e9", count: 128)
        let line = #"{"type":"link_click",\#(Self.ts),"clickId":"\#(id)","appKey":"a","slug":"s","route":"app"}"#
        #expect(acceptedEvent(line) != nil)
        let longer = #"{"type":"link_click",\#(Self.ts),"clickId":"\#(id)x","appKey":"a","slug":"s","route":"app"}"#
        #expect(rejectReason(longer) == "bad_field:clickId")
    }
}
