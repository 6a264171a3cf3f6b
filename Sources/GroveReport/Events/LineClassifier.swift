/// Classifies lines into their accounting buckets, a batch at a time; keep one per thread to
/// reuse its buffers.
///
/// Why batches: an id with millions of distinct values misses the cache three times when it is
/// interned (its slot, its entry, its bytes), each read waiting for the one before. The lines of
/// a batch are parsed first, then each of those reads is asked for, for all of their ids, before
/// the next; the misses of a batch overlap instead of stalling line after line. The lines are
/// then validated, interned and reported one by one, in order, as without a batch.
struct LineClassifier {
    /// The fields holding ids with millions of distinct values, whose interning misses the cache.
    private static let manyValuedIDs: [FieldName] = [.installId, .customerId, .clickId, .openId]

    /// Held inline, so that a reader is reached in place: an array's getter would copy it, a
    /// retain and release of each of its buffers a line.
    private var readers = LineBatch.PerLine<JSONObjectReader>(repeating: JSONObjectReader())
    /// What parsing found of each line of the batch.
    private var parsed = LineBatch.PerLine<Parse>(repeating: .blank)

    private enum Parse {
        case blank, invalid, object
    }
    /// The ids of the batch on their way into the cache: the first `pendingCount`, room for
    /// every id of `manyValuedIDs` in each line.
    private var pending = InlineArray<32, SymbolTable.Pending>(repeating: SymbolTable.Pending())
    private var pendingCount = 0
    /// Where each line's ids start in `pending`; one more entry ends the last line's.
    private var firstPending = InlineArray<9, Int>(repeating: 0)

    init() {
        precondition(pending.count >= LineBatch.capacity * Self.manyValuedIDs.count, "room for every id of a batch")
        precondition(firstPending.count == LineBatch.capacity + 1, "a start for each line of a batch and an end")
    }

    /// The outcome of one line no longer than the limit, without its line ending; the strings an
    /// accepted event keeps are interned into `symbols`.
    mutating func classify(_ line: UnsafeBufferPointer<UInt8>, _ symbols: inout SymbolTable) -> LineOutcome {
        var batch = LineBatch()
        batch.append(line, number: 1, offset: 0)
        prepare(batch, &symbols)
        return outcome(ofLine: 0, line, &symbols)
    }

    /// Parses the lines of a batch and brings the ids they will intern into the cache;
    /// `outcome(ofLine:_:_:)` then classifies each, in order. The lines must stay valid until then.
    mutating func prepare(_ batch: LineBatch, _ symbols: inout SymbolTable) {
        pendingCount = 0
        for index in 0..<batch.count {
            let line = batch.line(index)
            firstPending[index] = pendingCount
            defer { firstPending[index + 1] = pendingCount }
            parsed[index] = Self.isBlank(line) ? .blank : readers[index].parse(line) ? .object : .invalid
            guard parsed[index] == .object else { continue }
            for name in Self.manyValuedIDs {
                if let id = readers[index].unescapedString(name, in: line) {
                    pending[pendingCount] = symbols.prefetch(id)
                    pendingCount += 1
                }
            }
        }
        for index in 0..<pendingCount { symbols.prefetchEntry(&pending[index]) }
        for index in 0..<pendingCount { symbols.prefetchBytes(pending[index]) }
    }

    /// The outcome of line `index` of the batch `prepare` was given last; the strings an accepted
    /// event keeps are interned into `symbols`.
    mutating func outcome(ofLine index: Int, _ line: UnsafeBufferPointer<UInt8>, _ symbols: inout SymbolTable) -> LineOutcome {
        switch parsed[index] {
        case .blank: return .ignored(.blank)
        case .invalid: return .rejected(.invalidJSON)
        case .object: break
        }
        // The ids `prepare` hashed, for the interning of this line alone.
        for id in firstPending[index]..<firstPending[index + 1] { symbols.carry(pending[id]) }
        defer { symbols.dropCarried() }
        return readers[index].withObject(line) { object in
            if let key = object.firstRepeatedKey() { return .rejected(.duplicateKey(EmailMask.apply(key))) }
            do throws(RejectReason) {
                return try EventValidator.validate(object, &symbols)
            } catch {
                return .rejected(error)
            }
        }
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
