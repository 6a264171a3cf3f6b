/// LEB128 varints and zigzag signs: what the state's binary rows and index chunks store
/// integers as, so a small number takes one byte whatever its type's width.
enum Varint {
    /// `value` in 7-bit groups, low first; every byte but the last has its top bit set.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The varint at `position` (moved past it), or nil when the bytes end inside it or it is
    /// longer than 64 bits.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt64? {
        // Most are one byte (a count, a row id's step).
        if position < bytes.count, bytes[position] < 0x80 {
            position += 1
            return UInt64(bytes[position - 1])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let next = bytes[position]
            position += 1
            guard shift < 64, shift < 63 || next <= 1 else { return nil }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// A signed integer with its sign in the low bit, so small magnitudes stay small.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: value << 1 ^ value >> 63)
    }

    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
