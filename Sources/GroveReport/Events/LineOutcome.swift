/// Why a line was rejected (docs/EVENTS.md, Reject reasons), in its words.
enum RejectReason: Error, Hashable, Sendable {
    case lineTooLong
    case invalidJSON
    case duplicateKey(ByteString)
    case missingField(ByteString)
    case badField(ByteString)
    case disallowedField(ByteString)

    /// The reason a `text` names; nil for text that is no reason.
    init?(text: ByteString) {
        let bytes = text.bytes
        let simple: [(String, RejectReason)] = [("line_too_long", .lineTooLong), ("invalid_json", .invalidJSON)]
        if let match = simple.first(where: { Array($0.0.utf8) == bytes }) {
            self = match.1
            return
        }
        let prefixed: [(String, (ByteString) -> RejectReason)] = [
            ("duplicate_key:", RejectReason.duplicateKey), ("missing_field:", RejectReason.missingField),
            ("bad_field:", RejectReason.badField), ("disallowed_field:", RejectReason.disallowedField),
        ]
        for (prefix, make) in prefixed where bytes.starts(with: prefix.utf8) {
            self = make(ByteString(Array(bytes.dropFirst(prefix.utf8.count))))
            return
        }
        return nil
    }

    /// The reason as written in `summary.json` and `rejects.ndjson`, e.g. `missing_field:ts`.
    var text: ByteString {
        switch self {
        case .lineTooLong: ByteString("line_too_long")
        case .invalidJSON: ByteString("invalid_json")
        case .duplicateKey(let key): ByteString("duplicate_key:").appending(key)
        case .missingField(let key): ByteString("missing_field:").appending(key)
        case .badField(let key): ByteString("bad_field:").appending(key)
        case .disallowedField(let key): ByteString("disallowed_field:").appending(key)
        }
    }
}

/// Why a line was ignored: it holds nothing, or an event type this version does not know.
enum IgnoreReason: Int, CaseIterable, Hashable, Sendable {
    case blank
    case unknownType

    var name: String {
        switch self {
        case .blank: "blank"
        case .unknownType: "unknown_type"
        }
    }
}

/// The one accounting bucket every line ends in.
enum LineOutcome: Sendable, Equatable {
    case accepted(Event)
    case ignored(IgnoreReason)
    case rejected(RejectReason)
}
