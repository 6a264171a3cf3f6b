import CISAL

extension DecompressingReader {
    /// Inflates a gzip file with ISA-L as long as the stream is well-formed.
    ///
    /// Any fault — a corrupt or truncated stream, a checksum mismatch, trailing bytes, a header
    /// with flags zlib treats differently — ends with `.fallBack`, so faults are always reported
    /// by zlib, with zlib's message and offset. So that the bytes already handed on are never
    /// more than zlib would have inflated before the fault, output is handed on one buffer late:
    /// the buffer being filled when ISA-L stops is dropped, and zlib produces it again.
    func inflateAllWithISAL(
        _ source: inout ByteSource, library: ISALLibrary, counts: inout ByteCounts,
        consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> InflateOutcome {
        let state = UnsafeMutablePointer<grove_isal_inflate_state>.allocate(capacity: 1)
        defer { state.deallocate() }
        let buffers = [UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize),
                       UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)]
        defer { buffers.forEach { $0.deallocate() } }
        var held = (buffer: 0, count: 0)
        var forwarded = 0
        func handOnHeld() {
            guard held.count > 0 else { return }
            consume(UnsafeBufferPointer(start: buffers[held.buffer], count: held.count))
            counts.decompressed += held.count
            forwarded += held.count
            held.count = 0
        }

        library.inflateInit(state)
        while true {
            // One member, whose header zlib and ISA-L read alike.
            guard source.fill(minimum: 4), Self.isPlainGzipHeader(source.available) else {
                return .fallBack(forwarded: forwarded)
            }
            state.pointee.crc_flag = UInt32(GROVE_ISAL_GZIP)
            var outputFull = false
            while state.pointee.block_state != GROVE_ISAL_BLOCK_FINISH {
                if source.available.isEmpty && !outputFull {
                    guard source.fill(minimum: 1), !source.available.isEmpty else { return .fallBack(forwarded: forwarded) }
                }
                let input = source.available
                let target = 1 - held.buffer
                state.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                state.pointee.avail_in = UInt32(input.count)
                state.pointee.next_out = buffers[target]
                state.pointee.avail_out = UInt32(chunkSize)
                let status = library.inflate(state)
                let used = input.count - Int(state.pointee.avail_in)
                let produced = chunkSize - Int(state.pointee.avail_out)
                source.advance(used)
                guard status == GROVE_ISAL_DECOMP_OK else { return .fallBack(forwarded: forwarded) }
                if used == 0 && produced == 0 {
                    // Only a call without input (after a full buffer) may make no progress.
                    guard input.isEmpty else { return .fallBack(forwarded: forwarded) }
                    outputFull = false
                    continue
                }
                outputFull = produced == chunkSize
                if produced > 0 {
                    handOnHeld()
                    held = (target, produced)
                }
            }
            // Between members: another member, zero padding, or trailing bytes.
            guard source.fill(minimum: 2) else { return .fallBack(forwarded: forwarded) }
            let next = source.available
            // Zero padding must reach the end; `next` is stale once it has been skipped.
            if next.isEmpty || next[0] == 0 {
                guard next.isEmpty || skipZeroPadding(&source) == nil else { return .fallBack(forwarded: forwarded) }
                handOnHeld()
                return .finished
            }
            guard next.count >= 2, next[0] == 0x1F, next[1] == 0x8B else { return .fallBack(forwarded: forwarded) }
            library.inflateReset(state)
        }
    }

    /// A member header with the deflate method and no flags but FTEXT, FEXTRA, FNAME and
    /// FCOMMENT: zlib checks reserved flags and the header CRC in its own way, so such members
    /// are left to it.
    static func isPlainGzipHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 8 && bytes[3] & 0xE2 == 0
    }
}
