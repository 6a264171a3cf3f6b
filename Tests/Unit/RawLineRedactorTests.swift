import Testing
@testable import GroveGenerator
@testable import GroveReport

private func redact(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBufferPointer(RawLineRedactor.redact)
}

private func redact(_ text: String) -> String {
    String(decoding: redact(Array(text.utf8)), as: UTF8.self)
}

@Test func nestedSensitiveKeyValueIsRedacted() {
    #expect(redact(#"{"a":{"userEmail":"x@y"},"b":1}"#) == #"{"a":{"userEmail":"[REDACTED]"},"b":1}"#)
}

@Test func sensitiveKeyMatchIgnoresASCIICase() {
    #expect(
        redact(#"{"Password":"hunter2","API_TOKEN":"t","SecretSauce":1,"name":"n"}"#)
            == #"{"Password":"[REDACTED]","API_TOKEN":"[REDACTED]","SecretSauce":"[REDACTED]","name":"n"}"#)
}

@Test func objectAndArrayValuesAreRedactedWhole() {
    #expect(
        redact(#"{"token":{"a":[1,"}]"],"b":{}},"secrets":[1,[2,"]"]],"n":1}"#)
            == #"{"token":"[REDACTED]","secrets":"[REDACTED]","n":1}"#)
}

@Test func scalarValuesAreRedactedAndWhitespaceKept() {
    #expect(
        redact("{ \"token\" : 12345 ,\t\"password\":true,\"email\":null }")
            == "{ \"token\" : \"[REDACTED]\" ,\t\"password\":\"[REDACTED]\",\"email\":\"[REDACTED]\" }")
}

@Test func escapedKeyNamesAreMatchedAfterUnescaping() {
    #expect(
        redact(#"{"e\u006dail":"x","\u0053ECRET":"y","n\u0061me":"z"}"#)
            == #"{"e\u006dail":"[REDACTED]","\u0053ECRET":"[REDACTED]","n\u0061me":"z"}"#)
}

@Test func clickBindRedactsDisallowedKeyAndVerifiedEmail() {
    #expect(
        redact(#"{"type":"click_bind","ts":"2024-05-01T10:00:00Z","clickId":"c1","verifiedEmail":"a@b.c","userId":"u1"}"#)
            == #"{"type":"click_bind","ts":"2024-05-01T10:00:00Z","clickId":"c1","verifiedEmail":"[REDACTED]","userId":"[REDACTED]"}"#)
}

@Test func linkOpenRedactsSecretAndProjectIdButKeepsAllowedKeys() {
    #expect(
        redact(#"{"type":"link_open","ts":"2024-05-01T10:00:00Z","openId":"o1","secret":"hunter2","projectId":"p9","utm_source":"news","context":{"x":"y"}}"#)
            == #"{"type":"link_open","ts":"2024-05-01T10:00:00Z","openId":"o1","secret":"[REDACTED]","projectId":"[REDACTED]","utm_source":"news","context":{"x":"y"}}"#)
}

@Test func allowlistAppliesToKeysBeforeTheType() {
    #expect(redact(#"{"userId":"u1","type":"click_bind"}"#) == #"{"userId":"[REDACTED]","type":"click_bind"}"#)
}

@Test func allowlistAppliesOnBrokenLines() {
    #expect(redact(#"{"type" "link_open", "userId":"u1""#) == #"{"type" "link_open", "userId":"[REDACTED]""#)
}

@Test func bothTypesAllowOnlyKeysAllowedByBoth() {
    #expect(
        redact(#"{"type":"link_open","slug":"s","clickId":"c","note":"click_bind"}"#)
            == #"{"type":"link_open","slug":"[REDACTED]","clickId":"c","note":"[REDACTED]"}"#)
}

@Test func allowlistComparesUnescapedKeysAndRejectsInvalidEscapes() {
    #expect(
        redact(#"{"type":"click_bind","\clickId":"c1","click\u0049d":"c2"}"#)
            == #"{"type":"click_bind","\clickId":"[REDACTED]","click\u0049d":"c2"}"#)
}

@Test func truncatedValueRedactsRestOfLine() {
    #expect(redact(#"{"verifiedEmail":"a@b"#) == #"{"verifiedEmail":"[REDACTED]""#)
    #expect(redact(#"{"token":{"a":"b","#) == #"{"token":"[REDACTED]""#)
    #expect(redact(#"{"a":1,"token":tru"#) == #"{"a":1,"token":"[REDACTED]""#)
    #expect(redact(#"{"token":   "#) == #"{"token":   "#)
}

@Test func invalidJSONWithSensitiveKeyIsRedacted() {
    #expect(redact(#"{"email" : not json at all} tail"#) == #"{"email" : "[REDACTED]"} tail"#)
    #expect(redact(#""password":"x""#) == #""password":"[REDACTED]""#)
    #expect(redact(#"{"email":"a" "b":"c"}"#) == #"{"email":"[REDACTED]"}"#)
    #expect(redact(#"{"token":"a"b", "k":1}"#) == #"{"token":"[REDACTED]""#)
    #expect(redact(#"[{"secret":1]]"#) == #"[{"secret":"[REDACTED]"]]"#)
}

@Test func invalidUTF8BecomesReplacementCharacter() {
    let line = Array(#"{"a":""#.utf8) + [0xFF, 0x78, 0xC3] + Array(#"","password":""#.utf8) + [0xE2, 0x82] + Array(#""}"#.utf8)
    let out = redact(line)
    #expect(out == Array("{\"a\":\"\u{FFFD}x\u{FFFD}\",\"password\":\"[REDACTED]\"}".utf8))
    #expect(redact(#"{"name":"Zoë 日本 🌲"}"#) == #"{"name":"Zoë 日本 🌲"}"#)
}

@Test func duplicateKeysAreAllRedacted() {
    #expect(
        redact(#"{"email":"a","email":"b","type":"click_bind","userId":"1","userId":"2"}"#)
            == #"{"email":"[REDACTED]","email":"[REDACTED]","type":"click_bind","userId":"[REDACTED]","userId":"[REDACTED]"}"#)
}

@Test func colonsAndBracketsInsideStringsAreNotStructure() {
    #expect(
        redact(#"{"note":"password: x {[","href":"a:b]}","token":"x]},:"}"#)
            == #"{"note":"password: x {[","href":"a:b]}","token":"[REDACTED]"}"#)
    #expect(redact(#"["token",":","x"]"#) == #"["token",":","x"]"#)
}

@Test func lineWithoutSensitiveDataIsUnchanged() {
    let lines = [
        "{\"type\":\"order\", \"ts\":\"2024-05-01T10:00:00Z\",\t\"installId\":\"i1\",\"amountMinor\":1250,\"preview\":false}",
        #"{"type":"link_click","clickId":"c","route":"store","utm_term":"a\"b\\"}"#,
        "not json at all \\ ] } ,",
        "",
    ]
    for line in lines {
        #expect(redact(line) == line)
    }
}

@Test func pathologicalLongLinesFinish() {
    let lines: [[UInt8]] = [
        [UInt8](repeating: UInt8(ascii: "["), count: 1 << 20),
        Array(#"{"token":"#.utf8) + [UInt8](repeating: UInt8(ascii: "{"), count: 1 << 20),
        [UInt8](repeating: UInt8(ascii: "\\"), count: 1 << 20) + [UInt8(ascii: "\"")],
        Array(String(repeating: #""token":"#, count: 1 << 17).utf8),
        Array(#"{"type":"click_bind","#.utf8) + Array(String(repeating: #""a":1,"#, count: 1 << 17).utf8),
        [UInt8(ascii: "\"")] + Array(String(repeating: "xyz", count: 1 << 18).utf8) + Array(#"email":1"#.utf8),
    ]
    for line in lines {
        #expect(String(validating: redact(line), as: UTF8.self) != nil)
    }
}

@Test func randomLinesNeverLeakValuesOfSensitiveKeys() {
    // Fragments never leave a string open, so a planted key is always lexically a key.
    let fragments: [[UInt8]] = [
        "{", "}", "[", "]", ":", ",", " ", "\t", "1", "-2.5e3", "true", "null", "abc", "\\", "NaN",
        #""a""#, #""type""#, #""link_open""#, #""click_bind""#, #""x\"y""#, #""\\""#, #""p:{[""#,
        #""\u0041""#, #""é""#, #""token""#,
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0x22, 0xFF, 0x22]]
    let keys = [#""email""#, #""userEmail""#, #""SECRET""#, #""password""#, #""x_token""#, #""e\u006dail""#]
    let values = [#""M""#, "M", #"{"v":"M"}"#, #"["M",{"w":M}]"#, #""M\"q""#, #"[["M"]"#]
    let truncatedValues = [#""M"#, #"{"v":"M"#, #"["M"#]
    var rng = SeededRandom(seed: 2024)
    var planted = 0
    for _ in 0..<500 {
        var line: [UInt8] = []
        var markers: [String] = []
        func plant(_ value: String) {
            planted += 1
            let marker = "S3CR3T-\(planted)"
            markers.append(marker)
            let space = Bool.random(using: &rng) ? " " : ""
            let key = keys.randomElement(using: &rng)!
            line += Array((key + space + ":" + space + value.replacing("M", with: marker)).utf8)
        }
        for _ in 0..<Int.random(in: 0...30, using: &rng) {
            if Int.random(in: 0..<6, using: &rng) == 0 {
                plant(values.randomElement(using: &rng)!)
            } else {
                line += fragments.randomElement(using: &rng)!
            }
        }
        if Bool.random(using: &rng) { plant(truncatedValues.randomElement(using: &rng)!) }
        let out = redact(line)
        let text = String(validating: out, as: UTF8.self)
        #expect(text != nil)
        for marker in markers {
            #expect(text?.contains(marker) == false, "\(marker) leaked from \(String(decoding: line, as: UTF8.self))")
        }
    }
    #expect(planted > 500)
}

@Test func randomAllowlistedLinesNeverLeakDisallowedValues() {
    let allowed = [
        "link_open": ["ts", "openId", "appKey", "slug", "clickId", "context", "destination", "utm_campaign", "utm_term"],
        "click_bind": ["ts", "clickId"],
    ]
    let disallowed = ["userId", "projectId", "Type", "types", "utm_id", "verifiedEmail", "u\\u0073erId", "x"]
    let values = [#""M""#, "M", #"{"type":"M"}"#, #"["M",1]"#, "\"M\\\"\"", "[]"]
    var rng = SeededRandom(seed: 7)
    for n in 0..<300 {
        let type = Bool.random(using: &rng) ? "link_open" : "click_bind"
        func space() -> String { ["", " ", "\t", "  "].randomElement(using: &rng)! }
        var fields = [#""type""# + space() + ":" + space() + "\"\(type)\""]
        var allowedCount = 0
        for i in 0..<Int.random(in: 0...12, using: &rng) {
            if Bool.random(using: &rng) {
                let value = values.randomElement(using: &rng)!.replacing("M", with: "S3CR3T-\(n)-\(i)")
                fields.append("\"\(disallowed.randomElement(using: &rng)!)\":" + space() + value)
            } else {
                fields.append("\"\(allowed[type]!.randomElement(using: &rng)!)\":\"ok\"")
                allowedCount += 1
            }
        }
        let full = Array((space() + "{" + fields.joined(separator: space() + "," + space()) + "}" + space()).utf8)
        let truncated = Bool.random(using: &rng)
        let line = truncated ? Array(full.prefix(Int.random(in: 20...full.count, using: &rng))) : full
        let text = String(validating: redact(line), as: UTF8.self)
        #expect(text?.contains("S3CR3T") == false, "leak from \(String(decoding: line, as: UTF8.self))")
        if !truncated {
            #expect(text?.ranges(of: "\"ok\"").count == allowedCount)
        }
    }
}

@Test func noEmailSurvivesBrokenQuotesOrMangledKeys() {
    let lines = [
        #"{"type":"click_bind","ts":"x",clickId":"c1","verifiedEmail":"user11049@example.com"}"#,
        #"{"type":"click_bin","verifiedEma\#u{FFFD}l":"user24589@mail.example.org"}"#,
        #"{"type":"click_bind","verifiedEmail":]user25022@example.net"}"#,
        #"{"type":"link_open","note":"someone\u0040example.com","#,
        #"{"type]]":"click_,ind","verifiedEm0ail":"user14875@mail.example.org"}"#,
    ]
    for line in lines {
        let text = String(decoding: Array(line.utf8).withUnsafeBufferPointer { RawLineRedactor.redact($0) }, as: UTF8.self)
        #expect(!text.contains("@") && !text.lowercased().contains("\\u0040"), "\(text)")
        #expect(!text.contains("example"), "\(text)")
    }
    let plain = #"{"type":"decision","ts":"2026"#
    #expect(String(decoding: Array(plain.utf8).withUnsafeBufferPointer { RawLineRedactor.redact($0) }, as: UTF8.self) == plain)
}

@Test func everyURLValueIsRedactedForItsPairingCode() {
    #expect(
        redact(#"{"type":"preview_link","url":"acmemarket://grona-preview?code=AB12-cd34","outcome":"bogus"}"#)
            == #"{"type":"preview_link","url":"[REDACTED]","outcome":"bogus"}"#)
    // Any case, any depth, an escaped key, a value of another JSON type, a line cut inside the value.
    #expect(redact(#"{"URL":"x?code=AB12-cd34","meta":{"url":["code=AB12-cd34"]}}"#) == #"{"URL":"[REDACTED]","meta":{"url":"[REDACTED]"}}"#)
    #expect(redact(#"{"\u0075rl":"x?code=AB12-cd34"}"#) == #"{"\u0075rl":"[REDACTED]"}"#)
    #expect(redact(#"{"url":"acmemarket://grona-preview?code=AB1"#) == #"{"url":"[REDACTED]""#)
    // Only keys named url: a key merely containing it keeps its value.
    #expect(redact(#"{"urlScheme":"acmemarket","curl":"x"}"#) == #"{"urlScheme":"acmemarket","curl":"x"}"#)
}

/// The redactor and the validator read one allowlist: for every key the event tables name, a
/// `link_open` or `click_bind` line is rejected as `disallowed_field` exactly when `--rejects-raw`
/// redacts that key's value.
@Test(arguments: ["link_open", "click_bind"])
func theRedactorAndTheValidatorAgreeOnTheAllowlists(type: String) {
    for name in FieldName.allCases {
        let key = "\(name.key)"
        guard key != "type", key != "ts" else { continue }
        let line = #"{"type":"\#(type)","ts":"2026-03-01T10:00:00Z","\#(key)":"probe-value"}"#
        let disallowed = rejectReason(line) == "disallowed_field:\(key)"
        let redacted = Array(line.utf8).withUnsafeBufferPointer { RawLineRedactor.redact($0) }
        let hidden = !String(decoding: redacted, as: UTF8.self).contains("probe-value")
        // Sensitive names (verifiedEmail, url) are redacted whatever the allowlist says.
        let sensitive = ["email", "secret", "password", "token"].contains { key.lowercased().contains($0) } || key == "url"
        #expect(hidden == (disallowed || sensitive), "\(type) \(key): validator \(disallowed), redactor \(hidden)")
    }
}
