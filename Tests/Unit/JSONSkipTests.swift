import Testing
@testable import GroveGenerator
@testable import GroveReport

/// Values of keys the analysis ignores are validated without being materialized (a skipping
/// path with 16-byte SIMD string scanning): it must accept and reject exactly what the
/// materializing parser does, wherever in a 16-byte block a special byte falls.
struct JSONSkipTests {
    /// String contents, valid and not, raw bytes included.
    static let fragments: [[UInt8]] = [
        Array("plain".utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8), Array(#"\n\t\b\f\r"#.utf8),
        Array(#"\u00e9"#.utf8), Array(#"\ud83c\udf38"#.utf8), Array(#"\ud800"#.utf8), Array(#"\udc00"#.utf8),
        Array(#"\ud800\u0041"#.utf8), Array(#"\x"#.utf8), Array(#"\u12g4"#.utf8), Array(#"\u12"#.utf8),
        [0x09], [0x01], [0x7F], Array("é".utf8), Array("🌸".utf8), [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xFF], [0xE2, 0x82], [0xC3],
    ]

    /// Every fragment at every offset of a 16-byte block, as the value of an ignored key, alone
    /// and nested; the verdict must be the materializing parser's.
    @Test func skippedValuesAreValidatedExactlyLikeParsedOnes() {
        var checked = 0
        for fragment in Self.fragments {
            for padding in 0..<34 {
                let text = [UInt8](repeating: UInt8(ascii: "a"), count: padding) + fragment + Array("tail-of-the-string".utf8)
                let string = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
                for value in [string, Array("[1,".utf8) + string + Array("]".utf8),
                              Array(#"{"k":{"deep":["#.utf8) + string + Array("]}}".utf8), Array("{".utf8) + string + Array(":true}".utf8)] {
                    let line = Array(#"{"ts":"2026-03-02T00:00:00Z","sdkMeta":"#.utf8) + value + Array(#","other":null}"#.utf8)
                    let expectedValid = JSONValue.parse(line) != nil
                    let reason = rejectReasonOf(line)
                    #expect((reason != "invalid_json") == expectedValid, "\(String(decoding: line, as: UTF8.self))")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.fragments.count * 34 * 4)
    }

    @Test func knownAndUnknownKeysStillFindTheirFirstRepeat() {
        let metadata = (0..<40).map { #""meta\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(rejectReasonOf(Array(#"{"a":1,"b":"x","sdkVersion":"1","b":2,"a":3}"#.utf8)) == "duplicate_key:b")
        #expect(rejectReasonOf(Array(#"{"zz\u0061":1,"zza":2}"#.utf8)) == "duplicate_key:zza")
        // More unknown keys than are compared pairwise: the set takes over.
        #expect(rejectReasonOf(Array("{\(metadata),\"meta7\":1}".utf8)) == "duplicate_key:meta7")
        #expect(rejectReasonOf(Array("{\(metadata),\"meta7x\":1}".utf8)) == "missing_field:type")
        // Same length, first and last eight bytes: equal fingerprints, different keys.
        #expect(rejectReasonOf(Array(#"{"abcdefgh-1-ijklmnop":1,"abcdefgh-2-ijklmnop":2}"#.utf8)) == "missing_field:type")
    }

    /// Unknown keys drawn with repeats from a pool: the first repeat, reading left to right, is
    /// the one a set finds, whether or not the scanner's fingerprint filter let two distinct keys
    /// share a bit (64 bits, up to 40 keys a line: both happen).
    @Test func unknownKeysRepeatExactlyWhereASetSaysSo() {
        var random = SeededRandom(seed: 5)
        let pool = (0..<90).map { "sdk\($0 * 7919 % 1000)-\(String(repeating: "x", count: $0 % 13))" }
        var repeats = 0
        for _ in 0..<3_000 {
            let keys = (0..<random.inRange(1...40)).map { _ in pool[random.below(pool.count)] }
            var seen = Set<String>()
            let expected = keys.first { !seen.insert($0).inserted }
            let members = keys.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",")
            let reason = rejectReasonOf(Array(#"{"type":"link_click",\#(members)}"#.utf8))
            if let expected {
                #expect(reason == "duplicate_key:\(expected)", "\(keys)")
                repeats += 1
            } else {
                #expect(reason?.hasPrefix("duplicate_key") != true, "\(keys)")
            }
        }
        #expect(repeats > 500 && repeats < 2_500)
    }

    /// A line with more members than the scanner has room for is scanned again with twice the
    /// room: the members come out whole and in order, escaped keys and values included.
    @Test func aLineWithMoreMembersThanTheRoomIsScannedWhole() {
        let metadata = (0..<70).map { #""m\u0065ta\#($0)":"v\u0061l""# }.joined(separator: ",")
        let line = Array(#"{"type":"link_click",\#(metadata),"clickI\u0064":"c\u0031"}"#.utf8)
        let members = PlainLineTests.members(line, plain: false)
        #expect(members?.count == 72)
        #expect(members?.first == "type string link_click")
        #expect(members?[1] == "meta0 string ")
        #expect(members?[70] == "meta69 string ")
        #expect(members?.last == "clickId string c1")
    }

    func rejectReasonOf(_ line: [UInt8]) -> String? {
        if case .rejected(let reason) = classify(bytes: line) { return reason.text.description }
        return nil
    }
}
