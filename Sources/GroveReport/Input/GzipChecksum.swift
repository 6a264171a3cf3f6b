import CZlib

/// The CRC-32 of a gzip member's inflated bytes, as its trailer states it.
///
/// zlib 1.2's own check is table-driven, about 4 instructions a byte: an eighth of all a
/// production line costs. ISA-L's `crc32_gzip_refl` (the same function, by carry-less
/// multiplication where the processor has it) costs about a tenth of that; without ISA-L it is
/// zlib's `crc32`.
struct GzipChecksum {
    /// ISA-L's, when the library loads (`ISALLibrary`).
    private static let isal = try? ISALLibrary.shared.get().crc32

    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        if let isal = Self.isal {
            value = isal(value, start, UInt64(bytes.count))
        } else {
            value = UInt32(crc32(UInt(value), start, UInt32(bytes.count)))
        }
    }
}
