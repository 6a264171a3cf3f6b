import Foundation
import Testing
@testable import GroveReport

/// Stage filters refuse damaged or hostile records with one stderr line and exit 1, never a trap.
@Suite(.serialized)
struct HostileRecordTests {
    static let accounting = #"["accounting"]"# + "\t" + #"{"v":5,"accepted":[0,0,0,0,0,0,0,0],"ignored":[0,0],"rejected":{},"files":1,"bytes_read":10,"bytes_decompressed":10}"#

    static let hostile: [(String, [String], String)] = [
        ("a count near Int.max", [#"["accounting"]"# + "\t" + #"{"v":5,"accepted":[9223372036854775000,0,0,0,0,0,0,0],"ignored":[0,0],"rejected":{},"files":1,"bytes_read":0,"bytes_decompressed":0}"#], "out of range"),
        ("a negative count", [#"["accounting"]"# + "\t" + #"{"v":5,"accepted":[-5,0,0,0,0,0,0,0],"ignored":[0,0],"rejected":{},"files":1,"bytes_read":0,"bytes_decompressed":0}"#], "out of range"),
        ("a negative n", [#"["input_error","a.gz","10","corrupt"]"# + "\t" + #"{"v":5,"n":-1}"#], "out of range"),
        ("a huge n", [#"["input_error","a.gz","10","corrupt"]"# + "\t" + #"{"v":5,"n":9007199254740991}"#], "input errors"),
        ("a negative offset", [#"["input_error","a.gz","-10","corrupt"]"# + "\t" + #"{"v":5,"n":1}"#], "bad offset"),
        ("counts whose sum overflows", Array(repeating: #"["attribution_totals"]"# + "\t" + #"{"v":5,"counts":[9007199254740991,0,0,0,0]}"#, count: 600), "2^62"),
        ("a negative revenue", [#"["variant_counts","c","v"]"# + "\t" + #"{"v":5,"counts":[1,0,0,0,0],"revenue":"-1"}"#], "bad revenue"),
        ("a negative line", [#"["reject","a.gz","0","-3"]"# + "\t" + #"{"v":5,"offset":0,"reason":"invalid_json"}"#], "bad reject"),
        ("an instant out of range", [#"["order","o1"]"# + "\t" + #"{"v":5,"ts":[1e15,0],"amount":1,"preview":false,"denied":false,"installId":"i"}"#], "years 0001-9999"),
    ]

    @Test(arguments: hostile)
    func mergeAndRenderRefuseWithOneLine(_ name: String, _ records: [String], _ message: String) throws {
        let input = Array((records + [Self.accounting]).map { $0 + "\n" }.joined().utf8)
        let merge = try execute(["merge"], stdin: input)
        #expect(merge.status == 1, "\(name)")
        #expect(merge.stdout.isEmpty, "\(name)")
        #expect(merge.stderr.split(separator: "\n").count == 1 && merge.stderr.contains(message), "\(name): \(merge.stderr)")
        let out = try temporaryDirectory()
        let render = try execute(["render", "--out", out], stdin: input)
        #expect(render.status == 1, "\(name)")
        #expect(render.stderr.split(separator: "\n").count == 1 && render.stderr.contains(message), "\(name): \(render.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [], "\(name)")
    }

    @Test func theLargestValidValuesStillMerge() throws {
        let input = Array((Array(repeating: #"["attribution_totals"]"# + "\t" + #"{"v":5,"counts":[9007199254740991,0,0,0,0]}"#, count: 3)
            + [Self.accounting]).map { $0 + "\n" }.joined().utf8)
        let merge = try execute(["merge"], stdin: input)
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains(#"{"v":5,"counts":[27021597764222973,0,0,0,0]}"#))
    }

    @Test func partialStreamsItsRejectsAsRecords() throws {
        let lines = ["not json", #"{"type":"link_click"}"#] + EndToEndTests.good
        let partial = try execute(["partial", "--name", "a.ndjson", "--index", "3"], stdin: ndjson(lines))
        #expect(partial.status == 0, "\(partial.stderr)")
        let rejects: [String] = partial.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(#"["reject""#) }
        let first: String = #"["reject","a.ndjson","3","1"]"# + "\t" + #"{"v":5,"offset":0,"reason":"invalid_json"}"#
        let second: String = #"["reject","a.ndjson","3","2"]"# + "\t" + #"{"v":5,"offset":9,"reason":"missing_field:ts"}"#
        #expect(rejects == [first, second])
    }
}
