/// Redacts the raw bytes of a rejected input line for `rejects.ndjson` (`--rejects-raw`).
///
/// The scan is lexical, not a JSON parse: rejected lines are often not JSON at all (truncated,
/// broken, not UTF-8), and the rule that no sensitive value ever reaches an output file must hold
/// for them too. It only tells strings, structural characters, whitespace and other bytes apart,
/// so it cannot fail, runs in linear time, and where the structure is unclear it redacts more.
///
/// * The value of a key whose name contains `email`, `secret`, `password` or `token`, or is `url`
///   (a preview link's pairing code is a credential), any ASCII case, any depth, is replaced by
///   `"[REDACTED]"`.
/// * On a line mentioning the string `link_open` or `click_bind` anywhere, the value of every
///   top-level key outside the allowlist of each such type is replaced too.
///
/// A value is everything after the `:` up to the next `,` `}` `]` outside strings and brackets,
/// or up to the end of the line; surrounding whitespace is kept. Keys and all other bytes are
/// copied as they are, except that invalid UTF-8 becomes U+FFFD.
enum RawLineRedactor {
    private static let redacted = Array(#""[REDACTED]""#.utf8)
    private static let sensitiveWords = ["email", "secret", "password", "token"].map { Array($0.utf8) }
    private static let sensitiveNames = ["url"].map { Array($0.utf8) }
    private static let linkOpen = Array("link_open".utf8)
    private static let clickBind = Array("click_bind".utf8)
    /// The allowlists of the validator: one source for what may stand in those lines.
    private static let linkOpenKeys = EventValidator.linkOpenAllowlist.keys
    private static let clickBindKeys = EventValidator.clickBindAllowlist.keys

    /// Returns the line with sensitive values replaced by "[REDACTED]" and every run holding an
    /// `@` masked (see `maskingEmails`), as valid UTF-8 bytes (not JSON-escaped; the caller
    /// escapes it into a JSON string).
    static func redact(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        maskingEmails(redactingSensitiveKeys(line))
    }

    /// The lexical pass: values of sensitive keys, and of keys outside an allowlist in force.
    private static func redactingSensitiveKeys(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var name: [UInt8] = []
        let allowed = allowedKeys(line, &name)
        var out: [UInt8] = []
        out.reserveCapacity(line.count + redacted.count)
        var depth = 0
        var lastString: Range<Int>?  // the previous non-whitespace token, if it was a string
        var i = 0
        while i < line.count {
            let byte = line[i]
            if byte == quote {
                let close = closingQuote(line, i)
                let end = min(close + 1, line.count)
                out.append(contentsOf: line[i..<end])
                lastString = i + 1..<close
                i = end
                continue
            }
            out.append(byte)
            i += 1
            if isWhitespace(byte) { continue }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(depth - 1, 0)
            case UInt8(ascii: ":"):
                guard let key = lastString, mustRedact(line, key, depth <= 1 ? allowed : nil, &name) else { break }
                while i < line.count, isWhitespace(line[i]) {
                    out.append(line[i])
                    i += 1
                }
                let end = valueEnd(line, i)
                if end > i { out.append(contentsOf: redacted) }
                i = end
            default:
                break
            }
            lastString = nil
        }
        return Array(String(decoding: out, as: UTF8.self).utf8)
    }

    /// Masks every run of bytes holding `@` (or its escape `\u0040`). A broken quote or a mangled
    /// key (`"verifiedEm0ail"`, a type no longer `click_bind`) can hide a value from the lexical
    /// pass; with this one no email address survives whatever the damage. Other values with an
    /// `@` (a campaign named `@partners`) are masked too: a debugging aid may show less, never more.
    private static func maskingEmails(_ lexical: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(lexical.count)
        var start = 0
        while start < lexical.count {
            var end = start
            while end < lexical.count, !isRunDelimiter(lexical[end]) { end += 1 }
            if end == start {
                out.append(lexical[start])
                start += 1
                continue
            }
            let run = lexical[start..<end]
            out.append(contentsOf: holdsAt(run) ? Array("[REDACTED]".utf8) : Array(run))
            start = end
        }
        return out
    }

    private static func isRunDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case quote, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["),
             UInt8(ascii: "]"):
            return true
        default:
            return isWhitespace(byte)
        }
    }

    private static func holdsAt(_ run: ArraySlice<UInt8>) -> Bool {
        if run.contains(UInt8(ascii: "@")) { return true }
        let lowered = run.map { $0 | 0x20 }
        let escape = Array("\\u0040".utf8).map { $0 | 0x20 }
        return lowered.count >= escape.count && (0...(lowered.count - escape.count)).contains {
            Array(lowered[$0..<($0 + escape.count)]) == escape
        }
    }

    /// The allowlist in force: keys allowed by every allowlisted type the line mentions, or nil.
    private static func allowedKeys(_ line: UnsafeBufferPointer<UInt8>, _ name: inout [UInt8]) -> [[UInt8]]? {
        var sawLinkOpen = false
        var sawClickBind = false
        var i = 0
        while i < line.count {
            guard line[i] == quote else {
                i += 1
                continue
            }
            let close = closingQuote(line, i)
            _ = unescape(line, i + 1..<close, into: &name)
            sawLinkOpen = sawLinkOpen || name == linkOpen
            sawClickBind = sawClickBind || name == clickBind
            i = close + 1
        }
        switch (sawLinkOpen, sawClickBind) {
        case (true, true): return linkOpenKeys.filter { clickBindKeys.contains($0) }
        case (true, false): return linkOpenKeys
        case (false, true): return clickBindKeys
        case (false, false): return nil
        }
    }

    /// Whether the value of the key with the given (escaped) name must be redacted. `allowed` is
    /// the allowlist in force for this key, if any. A key with an invalid escape is never allowed.
    private static func mustRedact(
        _ line: UnsafeBufferPointer<UInt8>, _ key: Range<Int>, _ allowed: [[UInt8]]?, _ name: inout [UInt8]
    ) -> Bool {
        let valid = unescape(line, key, into: &name)
        if let allowed, !(valid && allowed.contains(name)) { return true }
        for i in name.indices where name[i] >= UInt8(ascii: "A") && name[i] <= UInt8(ascii: "Z") {
            name[i] |= 0x20
        }
        return sensitiveNames.contains(name) || sensitiveWords.contains { name.contains($0) }
    }

    /// Index of the quote closing the string that opens at `start`, or the line length.
    private static func closingQuote(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start + 1
        while i < line.count {
            switch line[i] {
            case quote: return i
            case backslash: i += 2
            default: i += 1
            }
        }
        return line.count
    }

    /// End of the value starting at `start` (after its last non-whitespace byte).
    private static func valueEnd(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var depth = 0
        var end = start
        var i = start
        while i < line.count {
            switch line[i] {
            case quote:
                i = min(closingQuote(line, i) + 1, line.count)
                end = i
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return end }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 0 { return end }
            case let byte where isWhitespace(byte):
                i += 1
                continue
            default:
                break
            }
            i += 1
            end = i
        }
        return end
    }

    /// Unescapes string content into `name`, for comparing with ASCII names only: an escaped
    /// non-ASCII character becomes the byte 0x80. An invalid escape `\c` becomes `c`; returns false
    /// if there was one.
    private static func unescape(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into name: inout [UInt8]) -> Bool {
        name.removeAll(keepingCapacity: true)
        var valid = true
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = line[i]
            i += 1
            guard byte == backslash, i < range.upperBound else {
                name.append(byte)
                continue
            }
            let escaped = line[i]
            i += 1
            switch escaped {
            case quote, backslash, UInt8(ascii: "/"): name.append(escaped)
            case UInt8(ascii: "b"): name.append(0x08)
            case UInt8(ascii: "f"): name.append(0x0C)
            case UInt8(ascii: "n"): name.append(0x0A)
            case UInt8(ascii: "r"): name.append(0x0D)
            case UInt8(ascii: "t"): name.append(0x09)
            case UInt8(ascii: "u") where i + 4 <= range.upperBound && line[i..<i + 4].allSatisfy(isHexDigit):
                let code = line[i..<i + 4].reduce(0) { $0 << 4 | hexValue($1) }
                name.append(code < 0x80 ? UInt8(code) : 0x80)
                i += 4
            default:
                name.append(escaped)
                valid = false
            }
        }
        return valid
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }

    private static func hexValue(_ byte: UInt8) -> Int {
        byte <= 0x39 ? Int(byte - 0x30) : Int(byte | 0x20) - 0x61 + 10
    }
}
