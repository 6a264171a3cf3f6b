/// Moves per-key records between a partial state and the state file, in the stage record format
/// (`KEY<TAB>VALUE`, docs/SPARK.md), sealed so that no email address is stored.
extension StateStore {
    /// Merges `fresh` (this run's merged partial state) into the stored records: only the keys
    /// its lines touched are read and rewritten.
    func merge(_ fresh: PartialState) throws(StateError) {
        let sealing = TextSealing(salt: salt)
        var touched = RecordDecoder()
        for (key, value) in Self.records(RecordEncoder.encode(fresh, sealing: sealing)) {
            try decode(key, value, into: &touched)
            if let stored = try record(key: key) { try decode(key, stored, into: &touched) }
        }
        for (key, value) in Self.records(RecordEncoder.encode(touched.state, sealing: sealing)) {
            try putRecord(kind: Self.kind(of: key), key: key, value: value)
        }
    }

    /// Every stored record, merged into one partial state (before the join stages).
    func load() throws(StateError) -> PartialState {
        var decoder = RecordDecoder()
        try forEachRecord { (key, value) throws(RecordError) in
            try decoder.read(ArraySlice(key + [0x09] + value))
        }
        return decoder.state
    }

    private func decode(_ key: [UInt8], _ value: [UInt8], into decoder: inout RecordDecoder) throws(StateError) {
        do throws(RecordError) {
            try decoder.read(ArraySlice(key + [0x09] + value))
        } catch {
            throw .notAState(path: path, reason: "a stored record is damaged: \(error.problem)")
        }
    }

    /// Splits encoded stage records into (KEY, VALUE) texts.
    private static func records(_ encoded: [UInt8]) -> [([UInt8], [UInt8])] {
        encoded.split(separator: 0x0A).compactMap { line in
            guard let tab = line.firstIndex(of: 0x09) else { return nil }
            return (Array(line[..<tab]), Array(line[(tab + 1)...]))
        }
    }

    /// The record kind: the first string of the KEY array (`["click","…"]` → `click`).
    private static func kind(of key: [UInt8]) -> String {
        let body = key.dropFirst(2)
        return String(decoding: body.prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
    }
}
