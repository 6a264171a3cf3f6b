/// `install`, keyed by campaign and installId: the preview flag (set by a preview event or a
/// paired `preview_link`), clean decisions, impressions and grants.
extension InstallRecord: KeyedStageRecord {
    static let kind = "install"
    static var store: WritableKeyPath<PartialState, PairKeyedRecords<InstallRecord>> { \.exposure.installs }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("preview", .bool(isPreviewInstall)),
            JSONOutput.Member("decisions", .array(decisions.values.map { decision in
                .array(encoder.unit(decision.unit) + encoder.exposure(decision.exposure) + [.integer(decision.lines)])
            })),
            JSONOutput.Member("impressions", .array(impressions.entries.map { .array([encoder.text($0.key), .integer($0.value)]) })),
            JSONOutput.Member("grants", .integer(grants)),
            JSONOutput.Member("leaked", .integer(leaked)),
        ]
    }

    static func decoded(key: SymbolPair, _ decoder: inout RecordDecoder) throws(RecordError) -> InstallRecord {
        var install = InstallRecord()
        install.isPreviewInstall = try decoder.bool("preview")
        for entry in try decoder.array("decisions") {
            guard case .array(let parts) = entry, parts.count == 6 else { throw decoder.failure("bad decision") }
            install.add(InstallRecord.UnitDecision(
                unit: try decoder.unit(parts[0], parts[1]),
                exposure: try decoder.exposure(parts[2...4]), lines: try decoder.integer(parts[5])))
        }
        for entry in try decoder.array("impressions") {
            guard case .array(let parts) = entry, parts.count == 2 else { throw decoder.failure("bad impression") }
            let lines = try decoder.integer(parts[1])
            install.impressions.update(decoder.symbol(try decoder.string(parts[0])), default: 0) { $0 += lines }
        }
        install.grants = try decoder.integer("grants")
        install.leaked = try decoder.integer("leaked")
        return install
    }
}
