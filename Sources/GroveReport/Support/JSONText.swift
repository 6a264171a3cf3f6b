/// Encodes text as a JSON string literal, quotes included. Hand-written so the generator controls
/// every byte: `"` and `\` are escaped, newline, carriage return and tab as `\n` `\r` `\t`, other
/// control characters as `\u00XX`; with `asciiOnly`, every non-ASCII scalar becomes `\uXXXX`
/// (a surrogate pair above U+FFFF), so the same text also reaches the reader written a second way.
enum JSONText {
    static func literal(_ text: String, asciiOnly: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case "\\": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case "\n": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case "\r": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case "\t": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case "\u{0}"..<" ":
                appendEscape(UInt16(scalar.value), to: &bytes)
            case _ where scalar.isASCII || !asciiOnly:
                UTF8.encode(scalar) { bytes.append($0) }
            default:
                UTF16.encode(scalar) { appendEscape($0, to: &bytes) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    /// Appends `\uXXXX` with lowercase hex digits.
    private static func appendEscape(_ unit: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(HexDigits.lowercase[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }
}

/// ASCII hex digits, shared by the escaper and the id writer.
enum HexDigits {
    static let lowercase: [UInt8] = Array("0123456789abcdef".utf8)
    static let uppercase: [UInt8] = Array("0123456789ABCDEF".utf8)
}
