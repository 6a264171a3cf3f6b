/// Stage records of format 3, which a state written before format 4 holds (and a state of schema
/// version 1 is migrated to, `RecordFormat2`): read by upgrading their text to the current format.
///
/// Format 4 added `previewUnidentifiedCustomer` to `campaign_counters`. A format 3 record never
/// counted it, and the state keeps no preview decision that would let it be counted again, so the
/// upgrade writes 0: nights ingested before the upgrade count 0 there (docs/STATE.md). Every
/// other kind is the same in both formats. The stage filters still refuse format 3: on a cluster
/// an older binary's records would count 0 without a word.
enum RecordFormat3 {
    /// A stored format 3 record's VALUE text in the current format; nil when it is not of format 3.
    static func upgrade(key: [UInt8], value: [UInt8]) -> [UInt8]? {
        let version = Array("{\"v\":3".utf8)
        guard value.starts(with: version), value.count > version.count,
              [UInt8(ascii: ","), UInt8(ascii: "}")].contains(value[version.count]), value.last == UInt8(ascii: "}")
        else { return nil }
        var upgraded = Array("{\"v\":\(RecordEncoder.formatVersion)".utf8)
        guard key.starts(with: Array("[\"\(CampaignCounters.kind)\"".utf8)) else { return upgraded + value[version.count...] }
        // JSON members are found by name: the new one goes last.
        upgraded += value[version.count..<(value.count - 1)]
        upgraded += Array(",\"previewUnidentifiedCustomer\":0}".utf8)
        return upgraded
    }
}
