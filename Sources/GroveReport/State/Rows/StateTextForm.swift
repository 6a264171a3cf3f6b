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

    /// The form `text` is best kept in, with the length of its whole prefix.
    static func form(of text: UnsafeBufferPointer<UInt8>) -> (form: StateTextForm, prefix: Int) {
        if text.count == 36, let upper = uuidCase(text) { return (upper ? .upperUUID : .lowerUUID, 0) }
        var start = text.count
        while start > 0, hexValue(text[start - 1], upper: false) != nil { start -= 1 }
        // An even number of digits, so the tail packs into whole bytes.
        if (text.count - start) % 2 == 1 { start += 1 }
        return text.count - start >= shortestHexTail ? (.hexTail, start) : (.whole, text.count)
    }

    /// The UUID's case when `text` (36 bytes) is one: 8-4-4-4-12 hex digits of one case.
    private static func uuidCase(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        var upper = true
        var lower = true
        for (index, character) in text.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            default:
                break
            }
            if hexValue(character, upper: true) == nil { upper = false }
            if hexValue(character, upper: false) == nil { lower = false }
            guard upper || lower else { return nil }
        }
        return upper
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

    /// Packs a UUID's 32 hex digits into 16 bytes, stepping over its dashes (its groups of 8, 4,
    /// 4, 4 and 12 digits never split a pair) without copying it.
    static func packUUID(_ text: UnsafeBufferPointer<UInt8>, upper: Bool, to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + 16)
        var index = 0
        while index + 1 < text.count {
            guard text[index] != UInt8(ascii: "-") else {
                index += 1
                continue
            }
            bytes.append((hexValue(text[index], upper: upper) ?? 0) << 4 | (hexValue(text[index + 1], upper: upper) ?? 0))
            index += 2
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
