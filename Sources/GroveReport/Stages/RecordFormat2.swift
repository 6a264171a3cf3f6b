/// Stage records of format 2, whose kinds were abbreviations (`acct`, `J`, `cv`…): read only to
/// upgrade what a state of schema version 1 stored.
enum RecordFormat2 {
    /// The format 3 kind of each renamed format 2 kind; `click`, `open` and `order` kept theirs.
    static let renamedKinds: [String: String] = [
        "acct": Accounting.kind, "err": InputError.kind, "rej": RejectRecord.kind,
        "bind": BindingRecord.kind, "inst": InstallRecord.kind, "camp": CampaignCounters.kind, "gtot": AuditTotals.kind,
        "J": ClickJoin.kind, "U": UnitAssignment.kind, "X": UnitConversion.kind, "attr": AttributionCounts.kind,
        "atot": AttributionExtras.kind, "cv": VariantCounts.kind, "cstat": CampaignStats.kind,
    ]

    /// A stored format 2 record in format 3 (which `RecordFormat3` reads on): its kind, KEY and
    /// VALUE texts; nil when the record is not of format 2.
    static func upgrade(key: [UInt8], value: [UInt8]) -> (kind: String, key: [UInt8], value: [UInt8])? {
        let version = Array("{\"v\":2".utf8)
        guard value.starts(with: version), value.count > version.count, [UInt8(ascii: ","), UInt8(ascii: "}")].contains(value[version.count]),
              let upgraded = upgrade(key: key)
        else { return nil }
        return (upgraded.kind, upgraded.key, Array("{\"v\":3".utf8) + value[version.count...])
    }

    /// A format 2 KEY text in format 3, with its kind; nil when it is not a KEY.
    static func upgrade(key: [UInt8]) -> (kind: String, key: [UInt8])? {
        guard key.starts(with: Array("[\"".utf8)), let close = key.dropFirst(2).firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let old = String(decoding: key[2..<close], as: UTF8.self)
        let kind = renamedKinds[old] ?? old
        return (kind, Array("[\"\(kind)".utf8) + key[close...])
    }
}
