import GroveReport

/// Accumulates NDJSON lines as raw bytes in one reusable buffer: values are copied from
/// pre-encoded literals or written digit by digit, so a line costs no String work and the buffer
/// goes to the compressor in large chunks.
struct JSONLineBuilder {
    private(set) var bytes: [UInt8] = []
    /// Whether the next key needs a separating comma.
    private var needsComma = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer once it has been handed to the compressor, keeping its storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Removes and returns the bytes from `offset` on: a line that goes elsewhere.
    mutating func cut(from offset: Int) -> [UInt8] {
        let tail = Array(bytes[offset...])
        bytes.removeSubrange(offset...)
        return tail
    }

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
    }

    /// Removes the `}` that closed the last object, so more keys can follow its last one.
    mutating func reopenObject() {
        precondition(bytes.last == UInt8(ascii: "}"), "reopenObject() needs a closed object")
        bytes.removeLast()
        needsComma = true
    }

    /// Ends the line with `\n`, or with `\r\n` as some exporters do.
    mutating func endLine(crlf: Bool) {
        if crlf {
            bytes.append(UInt8(ascii: "\r"))
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Writes `"name":`, preceded by a comma unless it is the object's first key.
    mutating func key(_ name: StaticString) {
        if needsComma {
            bytes.append(UInt8(ascii: ","))
        }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends raw bytes, already valid JSON in their position.
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes, already valid JSON in their position.
    mutating func append(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Appends the decimal digits of `value` (with a `-` when negative).
    mutating func appendDecimal(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        let start = bytes.count
        var magnitude = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// Appends `value` zero-padded to `width` digits (timestamps, UUIDs).
    mutating func appendPadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width {
            divisor *= 10
        }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends the lowest `digits` hex digits of `value`, most significant first.
    mutating func appendHex(_ value: UInt64, digits: Int, uppercase: Bool = false) {
        let table = uppercase ? HexDigits.uppercase : HexDigits.lowercase
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            bytes.append(table[Int((value >> UInt64(shift)) & 0xF)])
        }
    }

    // MARK: Fields

    /// A field whose value is a pre-encoded JSON literal (a string with its quotes, a number…).
    mutating func field(_ name: StaticString, _ encoded: [UInt8]) {
        key(name)
        bytes.append(contentsOf: encoded)
    }

    /// A field whose value is a JSON literal known at compile time (`true`, `"store"`, `null`…).
    mutating func field(_ name: StaticString, literal: StaticString) {
        key(name)
        append(literal)
    }

    mutating func field(_ name: StaticString, bool value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    mutating func field(_ name: StaticString, int value: Int) {
        key(name)
        appendDecimal(value)
    }

    /// A string id made of a fixed prefix and 16 hex digits, e.g. `"clk_3f9a…"`.
    mutating func field(_ name: StaticString, prefix: StaticString, hex value: UInt64) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        append(prefix)
        appendHex(value, digits: 16)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string id made of a fixed prefix and a decimal number, e.g. `"ORD-1000042"`.
    mutating func field(_ name: StaticString, prefix: StaticString, decimal value: Int) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        append(prefix)
        appendDecimal(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A `ts` field in the given RFC 3339 style.
    mutating func field(_ name: StaticString, instant: EpochNanoseconds, style: TimestampStyle) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        style.append(instant, to: &self)
        bytes.append(UInt8(ascii: "\""))
    }
}
