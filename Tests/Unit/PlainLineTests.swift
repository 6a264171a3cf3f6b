import Testing
@testable import GroveGenerator
@testable import GroveReport

/// Plain lines (printable ASCII without `\`) find a string's end by its next quote alone; every
/// other line is read byte by byte. The check must flag exactly the bytes it names, wherever a
/// 64-byte step, a 16-byte block or the overlapping last block puts them, and a plain line must parse to the very
/// members the byte-by-byte scan finds.
struct PlainLineTests {
    @Test func theCheckFlagsExactlyTheBytesThatAreNotPlain() {
        let probes: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x22, 0x41, 0x5B, 0x5C, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        var checked = 0
        for length in 1...150 {
            for position in 0..<length {
                for probe in probes {
                    var line = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    line[position] = probe
                    let expected = probe >= 0x20 && probe < 0x80 && probe != UInt8(ascii: "\\")
                    #expect(line.withUnsafeBufferPointer(PlainLine.check) == expected, "byte \(probe) at \(position) of \(length)")
                    checked += 1
                }
            }
        }
        #expect(checked == (1...150).reduce(0, +) * probes.count)
        #expect([UInt8]().withUnsafeBufferPointer(PlainLine.check))
    }

    /// Strings of every length around the 16-byte blocks the plain scan reads, holding structural
    /// characters, at every offset; unterminated strings and truncated lines too.
    @Test func plainLinesParseToTheSameMembersEitherWay() {
        let contents = ["", "a", "{", "}[]:,", "0123456", "01234567", "012345678", "a b {\"k\": [1, 2]}", "xyz 0123456789abcdef"]
        var lines: [[UInt8]] = []
        for padding in 0..<17 {
            let pad = String(repeating: "p", count: padding)
            for content in contents where !content.contains("\"") {
                lines.append(Array(#"{"\#(pad)":"\#(content)","type":"order","n":[{"\#(content)":null}],"z":"\#(content)\#(pad)"}"#.utf8))
                lines.append(Array(#"{"k\#(pad)":"\#(content)"#.utf8))
                lines.append(Array(#"{"k\#(pad)":{"deep":"\#(content)"#.utf8))
                lines.append(Array(#"{"k\#(pad)" : "\#(content)" , "m" : true }"#.utf8))
            }
        }
        var parsedBoth = 0
        for line in lines {
            #expect(line.withUnsafeBufferPointer(PlainLine.check))
            let plain = Self.members(line, plain: true)
            #expect(plain == Self.members(line, plain: false), "\(String(decoding: line, as: UTF8.self))")
            if plain != nil { parsedBoth += 1 }
        }
        #expect(parsedBoth == 17 * 8 * 2)
    }

    /// Random plain lines made of JSON's pieces, and a valid line with one byte changed, removed
    /// or added: the plain scan's verdicts and members must be the byte-by-byte scan's.
    @Test func randomPlainLinesParseToTheSameMembersEitherWay() {
        let pieces = ["{", "}", "[", "]", ":", ",", "\"", " ", "\"k\"", "\"type\"", "\"ts\"", "1", "-2.5e3", "0", "true",
                      "false", "null", "x", "\"v\"", "\"clickId\"", "\"abc def\""]
        let valid = Array(#"{"ts":"2026-03-02T00:00:00Z","type":"decision","n":-1.5e2,"items":[{"a":[1,true,null]},{}],"ok":false}"#.utf8)
        let plainBytes = Array(" \"{}[]:,01-.eE+tfnaluxr".utf8)
        var random = SeededRandom(seed: 11)
        var accepted = 0
        for round in 0..<20_000 {
            var line: [UInt8]
            if round % 2 == 0 {
                line = Array((0..<random.inRange(1...40)).map { _ in pieces[random.below(pieces.count)] }.joined().utf8)
                if random.chance(0.5) { line = Array("{\"type\":".utf8) + line }
            } else {
                line = valid
                let at = random.below(line.count)
                switch random.below(3) {
                case 0: line[at] = plainBytes[random.below(plainBytes.count)]
                case 1: line.remove(at: at)
                default: line.insert(plainBytes[random.below(plainBytes.count)], at: at)
                }
            }
            #expect(line.withUnsafeBufferPointer(PlainLine.check))
            let plain = Self.members(line, plain: true)
            #expect(plain == Self.members(line, plain: false), "\(String(decoding: line, as: UTF8.self))")
            if plain != nil { accepted += 1 }
        }
        // Both verdicts occur often: the scans are not compared on rejections alone.
        #expect(accepted > 1_000 && accepted < 19_000)
    }

    /// Each member's key, kind and value text, or nil when the scan rejects the line.
    static func members(_ line: [UInt8], plain: Bool) -> [String]? {
        line.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes: bytes, plain: plain)
            var scratch: [UInt8] = []
            var fields: [JSONField] = []
            var count = 0
            guard scanner.parseTopLevel(scratch: &scratch, fields: &fields, count: &count, names: FieldName.resolver) else {
                return nil
            }
            return scratch.withUnsafeBufferPointer { scratch in
                fields[..<count].map { field in
                    let text = { String(decoding: ParsedObject.bytes($0, line: bytes, scratch: scratch), as: UTF8.self) }
                    return "\(text(field.key)) \(field.kind) \(field.name == nil ? "" : text(field.value))"
                }
            }
        }
    }
}
