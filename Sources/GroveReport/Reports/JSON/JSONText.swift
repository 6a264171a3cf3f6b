/// Writes JSON string literals, quotes included: the one escaper of the reports, the stage
/// records' text and the generator. `"` and `\` are escaped, newline, carriage return and tab as
/// `\n` `\r` `\t`, the other control bytes and DEL as `\u00XX`; every other byte is copied, so
/// invalid UTF-8 from a log reaches the output as it came.
package enum JSONText {
    /// Appends `bytes` as a JSON string literal.
    package static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most texts (ids, names) need no escape: copy them whole.
        if bytes.contains(where: needsEscape) {
            for byte in bytes { appendEscaped(byte, to: &output) }
        } else {
            output.append(contentsOf: bytes)
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal. With `asciiOnly` every non-ASCII scalar is written
    /// `\uXXXX` (a surrogate pair above U+FFFF), so the generator can spell the same text a
    /// second way for the reader.
    package static func literal(_ text: String, asciiOnly: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        guard asciiOnly else {
            append(Array(text.utf8), to: &output)
            return output
        }
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                appendEscaped(UInt8(scalar.value), to: &output)
            } else {
                UTF16.encode(scalar) { appendUnicodeEscape($0, to: &output) }
            }
        }
        output.append(UInt8(ascii: "\""))
        return output
    }

    /// Appends `\uXXXX` with lowercase hex digits.
    package static func appendUnicodeEscape(_ unit: UInt16, to output: inout [UInt8]) {
        output += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(HexDigits.lowercase[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), byte]
        case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0..<0x20, 0x7F: appendUnicodeEscape(UInt16(byte), to: &output)
        default: output.append(byte)
        }
    }
}
