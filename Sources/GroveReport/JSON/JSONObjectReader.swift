/// A strict, allocation-free RFC 8259 reader for one NDJSON line whose top level must be an object.
///
/// Foundation's JSONSerialization accepts duplicate keys and is far too slow for the hot path, so
/// this reader works on bytes: it validates UTF-8, escapes (rejecting lone surrogates), the number
/// grammar, the nesting limit and trailing bytes, and records the top-level members as spans.
/// Reuse one reader per thread: its buffers are kept between lines.
struct JSONObjectReader {
    /// The deepest nesting accepted; the top-level object is depth 1.
    static let maximumDepth = 64

    var scratch: [UInt8] = []
    /// The members of the line parsed last are the first `fieldCount`; the rest is room.
    private var fields = [JSONField](repeating: .unused, count: 32)
    private var fieldCount = 0
    private let names = FieldName.resolver
    /// For each known field name, the index of its member, or -1.
    var fieldIndexByName = [Int32](repeating: -1, count: FieldName.allCases.count)
    /// The names set in `fieldIndexByName` by the last successful parse, as a bit mask.
    private var namesSeen: UInt32 = 0
    /// The index of the first member whose key repeats an earlier one, or -1.
    var firstRepeatIndex = -1
    /// Up to this many unknown keys are compared pairwise by fingerprint; more go through a set.
    static let pairwiseUnknownKeyLimit = 32

    init() {}

    /// Parses `line`; on success the top-level members are available through `withObject`.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        // Only strings with escapes are copied to the scratch, on few lines: emptying an empty
        // array still took about 50 instructions a line (`replaceSubrange`).
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        while namesSeen != 0 {
            fieldIndexByName[namesSeen.trailingZeroBitCount] = -1
            namesSeen &= namesSeen - 1
        }
        var scanner = JSONScanner(bytes: line, plain: PlainLine.check(line))
        guard scanner.parseTopLevel(scratch: &scratch, fields: &fields, count: &fieldCount, names: names) else {
            return false
        }
        indexFields(line, unknownKeysMayRepeat: scanner.unknownKeysMayRepeat)
        return true
    }

    /// Indexes the known names and finds the first repeated key, reading left to right; unknown
    /// keys are compared only when the scanner's filter says two of them may be equal.
    private mutating func indexFields(_ line: UnsafeBufferPointer<UInt8>, unknownKeysMayRepeat: Bool) {
        firstRepeatIndex = -1
        for index in 0..<fieldCount {
            guard let name = fields[index].name else { continue }
            let bit: UInt32 = 1 << UInt32(name.rawValue)
            if namesSeen & bit != 0 {
                if firstRepeatIndex < 0 { firstRepeatIndex = index }
            } else {
                namesSeen |= bit
                fieldIndexByName[Int(name.rawValue)] = Int32(index)
            }
        }
        if unknownKeysMayRepeat { findRepeatedUnknownKey(line) }
    }

    /// Lines whose keys the tables do not name (SDK metadata) may repeat one another, by the
    /// scanner's filter. A handful is compared pairwise by a fingerprint of length and end words,
    /// bytes only when fingerprints match; a line with very many goes through a set.
    private mutating func findRepeatedUnknownKey(_ line: UnsafeBufferPointer<UInt8>) {
        let end = firstRepeatIndex < 0 ? fieldCount : firstRepeatIndex
        let limit = Self.pairwiseUnknownKeyLimit
        // The repeating member's index, -1 for none, nil for more unknown keys than the limit.
        let repeated: Int? = view(line) { object in
            withUnsafeTemporaryAllocation(of: (print: UInt64, index: Int).self, capacity: limit) { prints in
                var count = 0
                for index in 0..<end where object.fields[index].name == nil {
                    guard count < limit else { return nil }
                    let key = object.key(at: index)
                    let print = Self.fingerprint(key)
                    for earlier in prints[..<count] where earlier.print == print {
                        if ParsedObject.equal(key, object.key(at: earlier.index)) { return index }
                    }
                    prints.initializeElement(at: count, to: (print, index))
                    count += 1
                }
                return -1
            }
        }
        guard let repeated else { return findRepeatedUnknownKeyWithSet(line, end: end) }
        if repeated >= 0 { firstRepeatIndex = repeated }
    }

    /// A key's `ShortKey` folded into one word: distinct for nearly all distinct short keys.
    static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let key = ShortKey(bytes)
        return (key.head &* Hashing.golden) ^ key.tail ^ UInt64(truncatingIfNeeded: key.count) << 57
    }

    private mutating func findRepeatedUnknownKeyWithSet(_ line: UnsafeBufferPointer<UInt8>, end: Int) {
        let repeated = view(line) { object in
            var seen = Set<ByteString>()
            return (0..<end).first { object.fields[$0].name == nil && !seen.insert(ByteString(object.key(at: $0))).inserted }
        }
        if let repeated { firstRepeatIndex = repeated }
    }

    /// The bytes in `line` of the known member `name` of the object parsed last, when it is a
    /// string without escapes; nil otherwise. For hints, which may pass over the rare escaped
    /// string. Mutating only so that a reader held in an inline array is reached in place.
    mutating func unescapedString(_ name: FieldName, in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let index = Int(fieldIndexByName[Int(name.rawValue)])
        guard index >= 0 else { return nil }
        let field = fields[index]
        guard field.kind == .string, !field.value.inScratch else { return nil }
        return UnsafeBufferPointer(rebasing: line[field.value.start..<(field.value.start + field.value.count)])
    }

    /// Calls `body` with a view of the object parsed last from `line`. Mutating only so that a
    /// reader held in an inline array (`LineClassifier`) is reached in place, not copied with a
    /// retain and release of each of its buffers.
    mutating func withObject<Result>(
        _ line: UnsafeBufferPointer<UInt8>, _ body: (ParsedObject) throws -> Result
    ) rethrows -> Result {
        try view(line, body)
    }

    /// `withObject` for the reader's own use.
    private func view<Result>(
        _ line: UnsafeBufferPointer<UInt8>, _ body: (ParsedObject) throws -> Result
    ) rethrows -> Result {
        try scratch.withUnsafeBufferPointer { scratchBytes in
            try fields.withUnsafeBufferPointer { fieldList in
                try fieldIndexByName.withUnsafeBufferPointer { indexByName in
                    try body(ParsedObject(
                        line: line, scratch: scratchBytes, fields: UnsafeBufferPointer(rebasing: fieldList[..<fieldCount]),
                        fieldIndexByName: indexByName,
                        firstRepeatIndex: firstRepeatIndex))
                }
            }
        }
    }
}
