/// Whether a line is *plain*: every byte printable ASCII (0x20–0x7F) other than `\`.
///
/// In a plain line every `"` opens or closes a string and the bytes between two quotes need no
/// checking (no escapes, no control bytes, no UTF-8 to validate), so the scanner finds a string's
/// end by looking for the next quote alone. Nearly every SDK line is plain; any other line is
/// scanned byte by byte. The check reads sixteen bytes at a time with SIMD compares (SSE2
/// `pcmpgtb`, `pcmpeqb`), four such blocks a step.
enum PlainLine {
    static func check(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress, line.count >= 16 else { return line.allSatisfy(isPlain) }
        let raw = UnsafeRawPointer(base)
        let count = line.count
        @inline(__always) func lanes(_ offset: Int) -> SIMD16<UInt8> {
            notPlainLanes(raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self))
        }
        var flagged = SIMD16<UInt8>()
        var offset = 0
        // Four blocks a step: the loop's own count and branch are paid once per 64 bytes.
        while offset &+ 64 <= count {
            flagged |= lanes(offset)
            flagged |= lanes(offset &+ 16)
            flagged |= lanes(offset &+ 32)
            flagged |= lanes(offset &+ 48)
            offset &+= 64
        }
        while offset &+ 16 <= count {
            flagged |= lanes(offset)
            offset &+= 16
        }
        // The last block overlaps the one before it rather than reading past the line.
        if offset < count { flagged |= lanes(count - 16) }
        let halves = unsafeBitCast(flagged, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] == 0
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\\")
    }

    /// 0xFF in the lanes of `chunk` that are not plain, 0 elsewhere.
    @inline(__always)
    private static func notPlainLanes(_ chunk: SIMD16<UInt8>) -> SIMD16<UInt8> {
        // As signed bytes, control bytes and bytes ≥ 0x80 are exactly those below 0x20. Each
        // compare takes vectors on both sides and its mask is cast to bytes at once: a scalar
        // operand, or `.|` on masks, is lowered lane by lane.
        let control = unsafeBitCast(chunk, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: 0x20)
        let backslash = chunk .== SIMD16<UInt8>(repeating: 0x5C)
        return unsafeBitCast(control, to: SIMD16<UInt8>.self) | unsafeBitCast(backslash, to: SIMD16<UInt8>.self)
    }
}
