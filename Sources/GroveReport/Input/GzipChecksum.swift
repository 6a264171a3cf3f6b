import CShims
import CZlib

/// The CRC-32 of a gzip member's inflated bytes, as its trailer states it.
///
/// zlib 1.2's own check is table-driven, about 4 instructions a byte: an eighth of all a
/// production line costs. With PCLMULQDQ (`CShims`, checked once a process) the whole 16-byte
/// blocks of at least 64 bytes cost about 0.2; the rest, and every byte on a processor without
/// it, go through zlib's `crc32`.
struct GzipChecksum {
    private static let folds = grove_crc32_clmul_available() != 0

    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var start = bytes.baseAddress else { return }
        var count = bytes.count
        if count >= 64 && Self.folds {
            let folded = count & ~15
            value = grove_crc32_clmul(value, start, folded)
            start += folded
            count -= folded
        }
        if count > 0 {
            value = UInt32(crc32(UInt(value), start, UInt32(count)))
        }
    }
}
