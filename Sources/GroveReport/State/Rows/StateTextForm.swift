/// How a row keeps a text that is not a name (schema 4): most ids the apps send are a short
/// prefix and lower-case hex digits (`clk_8e3ae4d4e6efdcfd`) or a UUID (`32D0F243-D48D-…`), kept
/// at about half their length; every other text is kept whole. Read back, each gives its exact
/// bytes (a form is chosen only when it can).
///
/// The header varint: 0 absent, 1 a sealed text (its 32 digest bytes), else 2 + (n << 2 | form).
enum StateTextForm: UInt64 {
    /// n bytes.
    case whole = 0
    /// n bytes of prefix, a varint m, then m bytes: the text's last 2m characters as lower-case hex.
    case hexTail = 1
    /// n = 0 and 16 bytes: a UUID of upper-case hex digits.
    case upperUUID = 2
    /// n = 0 and 16 bytes: a UUID of lower-case hex digits.
    case lowerUUID = 3

    /// Hex tails shorter than this are kept whole: the saving would not pay for the length byte.
    static let shortestHexTail = 8

    /// The form `text` is best kept in, with the length of its whole prefix, when it is not a
    /// UUID (`appendUUID`).
    static func form(of text: UnsafeBufferPointer<UInt8>) -> (form: StateTextForm, prefix: Int) {
        var start = text.count
        while start > 0, hexValue(text[start - 1], upper: false) != nil { start -= 1 }
        // An even number of digits, so the tail packs into whole bytes.
        if (text.count - start) % 2 == 1 { start += 1 }
        return text.count - start >= shortestHexTail ? (.hexTail, start) : (.whole, text.count)
    }

    /// Appends `text` as a UUID, its header and 16 bytes, when it is one (36 bytes: 8-4-4-4-12
    /// hex digits, the letters of one case; digits alone count as upper-case); appends nothing
    /// and returns false otherwise. One pass that checks and packs: most ids are UUIDs.
    static func appendUUID(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        let dash = UInt8(ascii: "-")
        guard text.count == 36, text[8] == dash, text[13] == dash, text[18] == dash, text[23] == dash else { return false }
        let start = bytes.count
        bytes.append(0)  // the header, once the case is known
        var letters = CaseSeen()
        var index = 0
        while index < 36 {
            // Over the dashes checked above: a dash anywhere else is no hex digit.
            if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
            guard let high = letters.value(text[index]), let low = letters.value(text[index + 1]) else {
                bytes.removeLast(bytes.count - start)
                return false
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        guard !(letters.upper && letters.lower) else {
            bytes.removeLast(bytes.count - start)
            return false
        }
        bytes[start] = UInt8(2 + (letters.lower ? lowerUUID : upperUUID).rawValue)
        return true
    }

    /// The cases of the hex letters met so far.
    private struct CaseSeen {
        var upper = false
        var lower = false

        /// A hex digit's value, noting a letter's case; nil for any other byte.
        mutating func value(_ character: UInt8) -> UInt8? {
            if character &- UInt8(ascii: "0") < 10 { return character &- UInt8(ascii: "0") }
            let letter = (character | 0x20) &- UInt8(ascii: "a")
            guard letter < 6 else { return nil }
            if character & 0x20 == 0 { upper = true } else { lower = true }
            return letter + 10
        }
    }

    /// A hex digit's value, of upper- or lower-case letters.
    static func hexValue(_ character: UInt8, upper: Bool) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f") where !upper: character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where upper: character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The digit of a value below 16.
    static func hexDigit(_ value: UInt8, upper: Bool) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : (upper ? UInt8(ascii: "A") : UInt8(ascii: "a")) + value - 10
    }

    /// Packs hex digit pairs into bytes.
    static func packHex(_ digits: UnsafeBufferPointer<UInt8>, upper: Bool, to bytes: inout [UInt8]) {
        for index in stride(from: 0, to: digits.count - 1, by: 2) {
            bytes.append((hexValue(digits[index], upper: upper) ?? 0) << 4 | (hexValue(digits[index + 1], upper: upper) ?? 0))
        }
    }

    /// Writes the hex digit pairs of `packed` into `text` from `start`, with a UUID's dashes
    /// when `dashes`; returns where they end. In place: a night unpacks a text of every stored
    /// record it reads.
    static func unpack(_ packed: ArraySlice<UInt8>, upper: Bool, dashes: Bool, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var end = start
        for (index, byte) in packed.enumerated() {
            if dashes, uuidDash(after: index) {
                text[end] = UInt8(ascii: "-")
                end += 1
            }
            text[end] = hexDigit(byte >> 4, upper: upper)
            text[end + 1] = hexDigit(byte & 0xF, upper: upper)
            end += 2
        }
        return end
    }

    /// Whether a UUID has a dash after this many packed bytes (4, 6, 8 and 10).
    static func uuidDash(after bytes: Int) -> Bool { bytes >= 4 && bytes <= 10 && bytes % 2 == 0 }
}
