/// An install row: keyed by campaign (a name) and installId; the preview flag, the clean
/// decisions (unit, variant, first exposure, control, lines), impressions by variant, grants and
/// leaked events. A decision's unit is a byte (0 install, 1 customer) and its id, or 2 alone for
/// the install the row is about, as most are.
extension InstallRecord: StateRowRecord {
    static let rowKind: UInt8 = 4

    static func writeKey(_ key: SymbolPair, to writer: inout StateRowWriter) throws(StateError) {
        try writer.name(key.first)
        writer.text(key.second)
    }

    static func readKey(from reader: inout StateRowReader) throws(StateError) -> SymbolPair {
        SymbolPair(first: try reader.requiredName(), second: try reader.requiredText())
    }

    /// The campaign's name number in a row's key, read without decoding the row; nil for a row
    /// of another kind, or a key too damaged to tell (which decoding it then reports).
    static func campaignNumber(ofKey key: [UInt8]) -> Int64? {
        guard key.first == rowKind else { return nil }
        return key.withUnsafeBufferPointer { bytes in
            var position = 1
            return Varint.read(bytes, at: &position).map { Int64(bitPattern: $0) }
        }
    }

    /// The unit byte of a decision whose unit is the row's own install.
    private static let ownInstall: UInt8 = 2

    func write(key: SymbolPair, to writer: inout StateRowWriter) throws(StateError) {
        writer.flag(isPreviewInstall)
        writer.count(decisions.values.count)
        for decision in decisions.values {
            if decision.unit == UnitKey(kind: .install, id: key.second) {
                writer.byte(Self.ownInstall)
            } else {
                writer.byte(decision.unit.kind.rawValue)
                writer.text(decision.unit.id)
            }
            try writer.name(decision.exposure.variant)
            writer.instant(decision.exposure.firstExposure)
            writer.flag(decision.exposure.control)
            writer.count(decision.lines)
        }
        writer.count(impressions.entries.count)
        for impression in impressions.entries {
            try writer.name(impression.key)
            writer.count(impression.value)
        }
        writer.count(grants)
        writer.count(leaked)
    }

    static func read(key: SymbolPair, from reader: inout StateRowReader) throws(StateError) -> InstallRecord {
        var install = InstallRecord()
        install.isPreviewInstall = try reader.flag()
        for _ in 0..<(try reader.count()) {
            let unitByte = try reader.byte()
            let unit: UnitKey
            if unitByte == Self.ownInstall {
                unit = UnitKey(kind: .install, id: key.second)
            } else if let kind = DecisionUnit(rawValue: unitByte) {
                unit = UnitKey(kind: kind, id: try reader.requiredText())
            } else {
                throw reader.damaged("an unknown unit kind")
            }
            let exposure = VariantExposure(variant: try reader.requiredName(), firstExposure: try reader.instant(), control: try reader.flag())
            install.add(InstallRecord.UnitDecision(unit: unit, exposure: exposure, lines: try reader.count()))
        }
        for _ in 0..<(try reader.count()) {
            let variant = try reader.requiredName()
            let lines = try reader.count()
            install.impressions.update(variant, default: 0) { $0 += lines }
        }
        install.grants = try reader.count()
        install.leaked = try reader.count()
        return install
    }
}
