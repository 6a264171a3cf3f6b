/// The stage record text (docs/SPARK.md) as the state stores it: one row per record, the
/// KEY (a JSON array, the record kind first) and the VALUE (a JSON object) in two columns.
enum StateRecordText {
    /// Splits encoded stage records into (KEY, VALUE) texts.
    static func split(_ encoded: [UInt8]) -> [([UInt8], [UInt8])] {
        encoded.split(separator: 0x0A).compactMap { line in
            guard let tab = line.firstIndex(of: 0x09) else { return nil }
            return (Array(line[..<tab]), Array(line[(tab + 1)...]))
        }
    }

    /// The KEY text of a record, as `RecordEncoder` writes it.
    static func key(_ kind: String, _ parts: ByteString...) -> [UInt8] {
        JSONOutput.array([.text(kind)] + parts.map(JSONOutput.string)).compact()
    }

    /// The record kind: the first string of the KEY array (`["click","…"]` → `click`).
    static func kind(of key: [UInt8]) -> String {
        String(decoding: key.dropFirst(2).prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
    }

    /// Reads one stored record into `decoder`, merging it with what the decoder holds; a record
    /// of stage format 3 or 4 (an older release's) is read as the current format (`RecordFormat3`,
    /// `RecordFormat4`).
    static func read(_ key: [UInt8], _ value: [UInt8], into decoder: inout RecordDecoder, path: String) throws(StateError) {
        do throws(RecordError) {
            let current = RecordFormat3.upgrade(key: key, value: value).map { RecordFormat4.completed(key: key, value: $0) }
                ?? RecordFormat4.upgrade(key: key, value: value) ?? value
            try decoder.read(ArraySlice(key + [0x09] + current))
        } catch {
            throw .notAState(path: path, reason: "a stored record is damaged: \(error.problem)")
        }
    }
}
