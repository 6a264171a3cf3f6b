import CZlib

extension DecompressingReader {
    /// Inflates a gzip file with zlib told not to compute its check (`inflateValidate`), the
    /// CRC-32 of every member computed here instead (`GzipChecksum`, several times faster), as
    /// long as the stream is well-formed.
    ///
    /// Any fault — a corrupt or truncated stream, a CRC or length mismatch, trailing bytes, a
    /// header with a header CRC or reserved flags (whose check is zlib's own) — ends with
    /// `.fallBack`, and validating zlib reads the file again, so faults are always reported by
    /// zlib with its message and offset. Skipping the check changes nothing zlib hands on before
    /// a fault (the check is of the trailer, which is after a member's last byte), so output is
    /// handed on as it comes.
    func inflateAllCheckedHere(
        _ source: inout ByteSource, counts: inout ByteCounts, consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> InflateOutcome {
        var stream = z_stream()
        guard grove_inflateInit2(&stream, 15 + 16) == Z_OK else { return .fallBack(forwarded: 0) }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { output.deallocate() }
        var forwarded = 0

        while true {
            // One member, whose header has nothing to check.
            guard source.fill(minimum: 4), Self.isPlainGzipHeader(source.available),
                  inflateValidate(&stream, 0) == Z_OK else {
                return .fallBack(forwarded: forwarded)
            }
            var checksum = GzipChecksum()
            var lastBytes: UInt64 = 0
            var status = Z_OK
            while status != Z_STREAM_END {
                if source.available.isEmpty {
                    guard source.fill(minimum: 1), !source.available.isEmpty else { return .fallBack(forwarded: forwarded) }
                }
                let input = source.available
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output
                stream.avail_out = UInt32(chunkSize)
                status = inflate(&stream, Z_NO_FLUSH)
                let used = input.count - Int(stream.avail_in)
                let produced = chunkSize - Int(stream.avail_out)
                source.advance(used)
                lastBytes = Self.shifting(lastBytes, in: UnsafeBufferPointer(rebasing: input[..<used]))
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    return .fallBack(forwarded: forwarded)
                }
                if produced > 0 {
                    let chunk = UnsafeBufferPointer(start: output, count: produced)
                    checksum.update(chunk)
                    counts.decompressed += produced
                    consume(chunk)
                    forwarded += produced
                }
            }
            // zlib stops right after the trailer: CRC-32, then the length modulo 2^32, little-endian.
            let trailer = UInt64(checksum.value) | UInt64(UInt32(truncatingIfNeeded: stream.total_out)) << 32
            guard lastBytes == trailer else { return .fallBack(forwarded: forwarded) }

            // Between members: another member, zero padding, or trailing bytes.
            guard source.fill(minimum: 2) else { return .fallBack(forwarded: forwarded) }
            let next = source.available
            if next.isEmpty { return .finished }
            // Zero padding must reach the end; `next` is stale once it has been skipped.
            if next[0] == 0 { return skipZeroPadding(&source) == nil ? .finished : .fallBack(forwarded: forwarded) }
            guard next.count >= 2, next[0] == 0x1F, next[1] == 0x8B else { return .fallBack(forwarded: forwarded) }
            inflateReset(&stream)
        }
    }

    /// The last eight bytes consumed, the latest in the high byte: shifted along by `bytes`.
    private static func shifting(_ lastBytes: UInt64, in bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var shifted = lastBytes
        for byte in bytes.suffix(8) {
            shifted = shifted >> 8 | UInt64(byte) << 56
        }
        return shifted
    }
}
