/// Stage records of format 4, which a state written before format 5 holds: read by giving their
/// text the current version.
///
/// Format 5 added `revenue_squares` (Σr²) to `variant_counts`. A format 4 state keeps that kind
/// only among its per-scope results, which the first run of format 5 recomputes from the stored
/// records (`StateRecompute`) before anything reads them; every other kind is the same in both
/// formats but `attribution_totals`, whose fifth count (`bindsOutsideWindow`, 0 before the bind
/// window existed) is added; a schema 2 state keeps one such record among its records. The stage
/// filters still refuse format 4: on a cluster an older binary's records
/// would lack Σr² without a word.
enum RecordFormat4 {
    /// A stored format 4 record's VALUE text in the current format; nil when it is not of format 4.
    static func upgrade(key: [UInt8], value: [UInt8]) -> [UInt8]? {
        let version = Array("{\"v\":4".utf8)
        guard value.starts(with: version), value.count > version.count,
              [UInt8(ascii: ","), UInt8(ascii: "}")].contains(value[version.count])
        else { return nil }
        return completed(key: key, value: Array("{\"v\":\(RecordEncoder.formatVersion)".utf8) + value[version.count...])
    }

    /// A record upgraded from format 3 or 4 with what format 5 added to its kind: the fifth
    /// count of `attribution_totals`.
    static func completed(key: [UInt8], value: [UInt8]) -> [UInt8] {
        guard key.starts(with: Array("[\"\(AttributionExtras.kind)\"".utf8)), value.suffix(2).elementsEqual("]}".utf8) else { return value }
        return value.dropLast(2) + Array(",0]}".utf8)
    }
}
