import CShims

/// The byte-level recursive-descent scanner behind `JSONObjectReader` and `JSONValue`.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether `bytes` is a plain line (`PlainLine`), whose strings end at their next quote;
    /// the strings of any other line are read and checked byte by byte.
    private let plain: Bool
    var index = 0
    /// One bit for each top-level key the tables do not name, chosen by the top six bits of its
    /// fingerprint: equal keys set the same bit, so unknown keys can repeat one another only if
    /// one of them found its bit set. On SDK lines, with five to ten such keys, that is rare,
    /// and the exact comparison (`JSONObjectReader.findRepeatedUnknownKey`) is skipped.
    private var unknownKeyBits: UInt64 = 0
    private(set) var unknownKeysMayRepeat = false

    init(bytes: UnsafeBufferPointer<UInt8>, plain: Bool = false) {
        self.bytes = bytes
        self.plain = plain
    }

    /// In a plain line, moves past the closing quote of the string whose opening quote was just
    /// consumed; false when the line has no closing quote. Sixteen bytes at a time, a quote is a
    /// set bit of their compare mask (`grove_byte_mask16`); the last bytes one at a time.
    @inline(__always)
    private mutating func closePlainString() -> Bool {
        if let base = bytes.baseAddress {
            while bytes.count - index >= 16 {
                let quotes = grove_byte_mask16(base + index, UInt8(ascii: "\""))
                if quotes != 0 {
                    index += quotes.trailingZeroBitCount + 1
                    return true
                }
                index += 16
            }
        }
        while index < bytes.count {
            index += 1
            if bytes[index - 1] == UInt8(ascii: "\"") { return true }
        }
        return false
    }

    var atEnd: Bool { index >= bytes.count }

    /// Inlined for its first byte, which in the compact lines SDKs write is never whitespace:
    /// every byte above the space ends it at once, and its load serves the check that follows.
    @inline(__always)
    mutating func skipWhitespace() {
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    @inline(never)
    private mutating func skipWhitespaceRun() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Parses the line's top-level object: its members go to the front of `fields`, `count` of
    /// them. `fields` is room, not a list: written through one buffer, a member costs a store, not
    /// the uniqueness check of an append. A line with more members than the room is parsed again
    /// once the room has doubled.
    mutating func parseTopLevel(
        scratch: inout [UInt8], fields: inout [JSONField], count: inout Int, names: FieldName.Resolver
    ) -> Bool {
        let start = self
        let scratchCount = scratch.count
        while true {
            let outcome = fields.withUnsafeMutableBufferPointer { room in
                parseMembers(into: room, count: &count, scratch: &scratch, names: names)
            }
            guard let parsed = outcome else {
                self = start
                scratch.removeSubrange(scratchCount...)
                fields += repeatElement(.unused, count: max(fields.count, 16))
                continue
            }
            return parsed
        }
    }

    /// The member loop of `parseTopLevel`: whether the line is an object, or nil when its members
    /// outnumber `room`.
    private mutating func parseMembers(
        into room: UnsafeMutableBufferPointer<JSONField>, count: inout Int, scratch: inout [UInt8],
        names: FieldName.Resolver
    ) -> Bool? {
        count = 0
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if !consume(UInt8(ascii: "}")) {
            while true {
                guard count < room.count else { return nil }
                skipWhitespace()
                guard let key = parseString(scratch: &scratch) else { return false }
                let (name, fingerprint) = key.inScratch
                    ? scratch.withUnsafeBufferPointer { Self.resolve(ParsedObject.bytes(key, line: bytes, scratch: $0), names) }
                    : Self.resolve(UnsafeBufferPointer(rebasing: bytes[key.start..<(key.start + key.count)]), names)
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                if name == nil {
                    noteUnknownKey(fingerprint)
                    // Nothing reads the value of a key the tables do not name but its kind (for
                    // the allowlists' null rule): validate it without copying escapes anywhere.
                    guard let kind = skipValue(depth: 1) else { return false }
                    room[count] = JSONField(key: key, name: nil, kind: kind, value: ByteSpan(start: 0, count: 0, inScratch: false))
                } else {
                    guard let (kind, value) = parseValue(depth: 1, scratch: &scratch) else { return false }
                    room[count] = JSONField(key: key, name: name, kind: kind, value: value)
                }
                count += 1
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")) else { return false }
                break
            }
        }
        skipWhitespace()
        return atEnd
    }

    /// The known name of a key's bytes; for a key the tables do not name, nil and the key's
    /// fingerprint, for `noteUnknownKey`.
    @inline(__always)
    private static func resolve(_ key: UnsafeBufferPointer<UInt8>, _ names: FieldName.Resolver) -> (FieldName?, UInt64) {
        guard let name = names.resolve(key) else { return (nil, JSONObjectReader.fingerprint(key)) }
        return (name, 0)
    }

    /// Sets the bit of an unknown key's fingerprint in `unknownKeyBits`.
    @inline(__always)
    private mutating func noteUnknownKey(_ fingerprint: UInt64) {
        let bit: UInt64 = 1 << (fingerprint >> 58)
        if unknownKeyBits & bit != 0 { unknownKeysMayRepeat = true }
        unknownKeyBits |= bit
    }

    /// Parses the value at `index`, inside a container at `depth`. Inlined into the member loop,
    /// its only caller, so that a member's value comes back in registers.
    @inline(__always)
    private mutating func parseValue(depth: Int, scratch: inout [UInt8]) -> (JSONKind, ByteSpan)? {
        guard index < bytes.count else { return nil }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let span = parseString(scratch: &scratch) else { return nil }
            return (.string, span)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONObjectReader.maximumDepth, skipContainer(depth: depth + 1) else { return nil }
            let kind: JSONKind = bytes[start] == UInt8(ascii: "{") ? .object : .array
            return (kind, ByteSpan(start: start, count: index - start, inScratch: false))
        case UInt8(ascii: "t"):
            return literal("true", .trueLiteral)
        case UInt8(ascii: "f"):
            return literal("false", .falseLiteral)
        case UInt8(ascii: "n"):
            return literal("null", .null)
        default:
            guard skipNumber() else { return nil }
            return (.number, ByteSpan(start: start, count: index - start, inScratch: false))
        }
    }

    /// Validates the value at `index`, inside a container at `depth`, and returns its kind only.
    private mutating func skipValue(depth: Int) -> JSONKind? {
        guard index < bytes.count else { return nil }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString() ? .string : nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONObjectReader.maximumDepth, skipContainer(depth: depth + 1) else { return nil }
            return bytes[start] == UInt8(ascii: "{") ? .object : .array
        case UInt8(ascii: "t"):
            return literal("true", .trueLiteral)?.0
        case UInt8(ascii: "f"):
            return literal("false", .falseLiteral)?.0
        case UInt8(ascii: "n"):
            return literal("null", .null)?.0
        default:
            return skipNumber() ? .number : nil
        }
    }

    mutating func literal(_ word: StaticString, _ kind: JSONKind) -> (JSONKind, ByteSpan)? {
        let length = word.utf8CodeUnitCount
        guard bytes.count - index >= length else { return nil }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] {
            return nil
        }
        let span = ByteSpan(start: index, count: length, inScratch: false)
        index += length
        return (kind, span)
    }

    /// Validates a nested object or array opening at `index`, which sits at `depth`.
    private mutating func skipContainer(depth: Int) -> Bool {
        let isObject = bytes[index] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if consume(close) { return true }
        while true {
            skipWhitespace()
            if isObject {
                guard skipString() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard skipString() else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < JSONObjectReader.maximumDepth, skipContainer(depth: depth + 1) else { return false }
            default:
                guard skipValue(depth: depth) != nil else { return false }
            }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            return consume(close)
        }
    }

    /// Validates a string at `index` as `parseString` does (UTF-8, escapes, surrogate pairs,
    /// no raw control bytes) without unescaping it anywhere.
    @inline(__always)
    private mutating func skipString() -> Bool {
        guard consume(UInt8(ascii: "\"")) else { return false }
        if plain { return closePlainString() }
        return skipCheckedString()
    }

    /// The rest of `skipString` in a line that is not plain.
    @inline(never)
    private mutating func skipCheckedString() -> Bool {
        while true {
            skipPlainStringBytes()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case UInt8(ascii: "\\"):
                guard skipEscape() else { return false }
            case 0..<0x20:
                return false
            default:
                guard skipUTF8Sequence() else { return false }
            }
        }
    }

    /// Validates the escape at `index` (which holds the backslash) as `unescape` does.
    private mutating func skipEscape() -> Bool {
        guard index + 1 < bytes.count else { return false }
        let escaped = bytes[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            return unicodeEscape() != nil
        default:
            return false
        }
    }

    /// Parses a string at `index`; returns its unescaped bytes as a span of the line when it has
    /// no escapes, or of `scratch` when it has.
    @inline(__always)
    mutating func parseString(scratch: inout [UInt8]) -> ByteSpan? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        if plain {
            guard closePlainString() else { return nil }
            return ByteSpan(start: start, count: index - 1 - start, inScratch: false)
        }
        return parseCheckedString(from: start, scratch: &scratch)
    }

    /// The rest of `parseString` in a line that is not plain, from the string's first byte.
    @inline(never)
    private mutating func parseCheckedString(from start: Int, scratch: inout [UInt8]) -> ByteSpan? {
        while true {
            skipPlainStringBytes()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let span = ByteSpan(start: start, count: index - start, inScratch: false)
                index += 1
                return span
            case UInt8(ascii: "\\"):
                return parseEscapedString(from: start, scratch: &scratch)
            case 0..<0x20:
                return nil
            default:
                guard skipUTF8Sequence() else { return nil }
            }
        }
    }

    /// Skips printable ASCII other than `"` and `\`, sixteen or eight bytes at a time where it can.
    ///
    /// Sixteen bytes are tested at once as a `SIMD16<UInt8>` with the has-zero-byte trick done
    /// per lane, so no borrow crosses lanes: bit 7 of a lane ends up set exactly for a quote, a
    /// backslash, a control byte or a byte ≥ 0x80. Only lane-wise arithmetic is used (SSE2 `paddb`,
    /// `pxor`, `por`, `pand`); the lowest flagged lane is found through the two 64-bit halves.
    /// The last bytes go through one word the same way, whose lowest flagged byte is always real.
    private mutating func skipPlainStringBytes() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 16 <= bytes.count {
                let flags = Self.specialStringBytes(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
                if flags[0] | flags[1] == 0 {
                    index += 16
                    continue
                }
                index += flags[0] != 0 ? flags[0].trailingZeroBitCount / 8 : 8 + flags[1].trailingZeroBitCount / 8
                return
            }
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                    | ((word &- ones &* 0x20) & ~word) | word
                let flagged = special & highBits
                if flagged != 0 {
                    index += flagged.trailingZeroBitCount / 8
                    return
                }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return }
            index += 1
        }
    }

    /// 0x80 in each lane of `bytes` holding `"`, `\`, a control byte or a byte ≥ 0x80, 0 elsewhere,
    /// as two little-endian words.
    @inline(__always)
    private static func specialStringBytes(_ bytes: SIMD16<UInt8>) -> SIMD2<UInt64> {
        let one = SIMD16<UInt8>(repeating: 1)
        let allBits = SIMD16<UInt8>(repeating: 0xFF)
        let quote = bytes ^ SIMD16<UInt8>(repeating: 0x22)
        let backslash = bytes ^ SIMD16<UInt8>(repeating: 0x5C)
        let special = ((quote &- one) & (quote ^ allBits)) | ((backslash &- one) & (backslash ^ allBits))
            | ((bytes &- SIMD16<UInt8>(repeating: 0x20)) & (bytes ^ allBits)) | bytes
        return unsafeBitCast(special & SIMD16<UInt8>(repeating: 0x80), to: SIMD2<UInt64>.self)
    }

    /// The slow path of `parseString`: copies the string into `scratch`, unescaping as it goes.
    private mutating func parseEscapedString(from start: Int, scratch: inout [UInt8]) -> ByteSpan? {
        let scratchStart = scratch.count
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return ByteSpan(start: scratchStart, count: scratch.count - scratchStart, inScratch: true)
            case UInt8(ascii: "\\"):
                guard unescape(into: &scratch) else { return nil }
            case 0..<0x20:
                return nil
            case 0x20..<0x80:
                scratch.append(byte)
                index += 1
            default:
                let sequenceStart = index
                guard skipUTF8Sequence() else { return nil }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        return nil
    }

    /// Decodes the escape at `index` (which holds the backslash) and appends its UTF-8.
    private mutating func unescape(into scratch: inout [UInt8]) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let escaped = bytes[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            guard let scalar = unicodeEscape() else { return false }
            appendUTF8(scalar, to: &scratch)
        default:
            return false
        }
        return true
    }

    /// The scalar of a `\u` escape whose four hex digits start at `index`, a surrogate pair read
    /// whole (a high surrogate must be followed by `\u` and a low one); nil for bad hex digits or
    /// a lone surrogate. The one check of `skipEscape` and `unescape`.
    private mutating func unicodeEscape() -> UInt32? {
        guard let unit = hexQuad() else { return nil }
        switch unit {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            return nil
        default:
            return unit
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to scratch: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Skips one multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and values above U+10FFFF.
    private mutating func skipUTF8Sequence() -> Bool {
        let lead = bytes[index]
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondHigh = 0x9F
        case 0xF0: length = 4; secondLow = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondHigh = 0x8F
        default: return false
        }
        guard bytes.count - index >= length else { return false }
        let second = bytes[index + 1]
        guard second >= secondLow, second <= secondHigh else { return false }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            return false
        }
        index += length
        return true
    }

    /// Skips a number matching `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func skipNumber() -> Bool {
        _ = consume(UInt8(ascii: "-"))
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() else { return false }
        }
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() else { return false }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() else { return false }
        }
        return true
    }

    /// Skips one or more ASCII digits.
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index > start
    }
}
