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

    /// Appends `text` in its form, header first: a UUID, a prefix and a lower-case hex tail, or
    /// whole. Every text of a night's rows passes here (a few hundred thousand), so a text is
    /// classified through a table and written with one append, not byte by byte.
    static func append(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        digits.withUnsafeBufferPointer { digits in
            if appendUUID(text, digits: digits, to: &bytes) { return }
            // The longest tail of lower-case hex digits, of an even length.
            var start = text.count
            while start > 0, digits[Int(text[start - 1])] & (notHex | upperLetter) == 0 { start -= 1 }
            if (text.count - start) % 2 == 1 { start += 1 }
            guard text.count - start >= shortestHexTail else {
                Varint.append(2 + (UInt64(text.count) << 2 | whole.rawValue), to: &bytes)
                bytes.append(contentsOf: text)
                return
            }
            Varint.append(2 + (UInt64(start) << 2 | hexTail.rawValue), to: &bytes)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<start]))
            Varint.append(UInt64(text.count - start) / 2, to: &bytes)
            _ = packLowerHex(UnsafeBufferPointer(rebasing: text[start...]), digits: digits, to: &bytes)
        }
    }

    /// Appends the bytes that pairs of lower-case hex digits spell (an even count of them), or,
    /// when one is not such a digit, appends nothing and returns false: a hex tail's packing,
    /// and a sealed text's digest (`TextSealing.digestBytes`).
    static func packLowerHex(_ hex: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        digits.withUnsafeBufferPointer { packLowerHex(hex, digits: $0, to: &bytes) }
    }

    private static func packLowerHex(_ hex: UnsafeBufferPointer<UInt8>, digits: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        let pairs = hex.count / 2
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pairs) { packed in
            var seen: UInt8 = 0
            for pair in 0..<pairs {
                let high = digits[Int(hex[2 * pair])], low = digits[Int(hex[2 * pair + 1])]
                seen |= high | low
                packed[pair] = high << 4 | low & 0xF
            }
            guard seen & (notHex | upperLetter) == 0 else { return false }
            bytes.append(contentsOf: packed)
            return true
        }
    }

    /// Appends `text` as a UUID, its header and 16 bytes, when it is one (36 bytes: 8-4-4-4-12
    /// hex digits, the letters of one case; digits alone count as upper-case); appends nothing
    /// and returns false otherwise. One pass that checks and packs: most ids are UUIDs.
    private static func appendUUID(_ text: UnsafeBufferPointer<UInt8>, digits: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) -> Bool {
        let dash = UInt8(ascii: "-")
        guard text.count == 36, text[8] == dash, text[13] == dash, text[18] == dash, text[23] == dash else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { packed in
            // The flags of every character, or-ed: whether any is no hex digit, and the cases.
            var seen: UInt8 = 0
            var index = 0
            for position in 1...16 {
                // Over the dashes checked above: a dash anywhere else is no hex digit.
                if index == 8 || index == 13 || index == 18 || index == 23 { index += 1 }
                let high = digits[Int(text[index])], low = digits[Int(text[index + 1])]
                seen |= high | low
                packed[position] = high << 4 | low & 0xF
                index += 2
            }
            guard seen & notHex == 0, seen & (upperLetter | lowerLetter) != upperLetter | lowerLetter else { return false }
            packed[0] = UInt8(2 + (seen & lowerLetter != 0 ? lowerUUID : upperUUID).rawValue)
            bytes.append(contentsOf: packed)
            return true
        }
    }

    /// Each byte's value as a hex digit in the low four bits, and what it is in the high ones.
    private static let digits: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10 | lowerLetter
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10 | upperLetter
        default: notHex
        }
    }
    private static let lowerLetter: UInt8 = 0x10
    private static let upperLetter: UInt8 = 0x20
    private static let notHex: UInt8 = 0x40

    /// The digit of a value below 16.
    static func hexDigit(_ value: UInt8, upper: Bool) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : (upper ? UInt8(ascii: "A") : UInt8(ascii: "a")) + value - 10
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
