/// A click, open, order or campaign: `[id]`.
extension Symbol: StageRecordKey {
    static var stageKeyLength: Int { 1 }

    func stageKey(_ encoder: RecordEncoder) -> [JSONOutput] { [encoder.text(self)] }

    init(stageKey parts: ArraySlice<String>, _ decoder: inout RecordDecoder) throws(RecordError) {
        self = decoder.symbol(parts[parts.startIndex])
    }
}

/// A campaign's install or a campaign's variant: `[first, second]`.
extension SymbolPair: StageRecordKey {
    static var stageKeyLength: Int { 2 }

    func stageKey(_ encoder: RecordEncoder) -> [JSONOutput] { [encoder.text(first), encoder.text(second)] }

    init(stageKey parts: ArraySlice<String>, _ decoder: inout RecordDecoder) throws(RecordError) {
        self.init(first: decoder.symbol(parts[parts.startIndex]), second: decoder.symbol(parts[parts.startIndex + 1]))
    }
}

/// A unit: `[install|customer, id]`.
extension UnitKey: StageRecordKey {
    static var stageKeyLength: Int { 2 }

    func stageKey(_ encoder: RecordEncoder) -> [JSONOutput] { encoder.unit(self) }

    init(stageKey parts: ArraySlice<String>, _ decoder: inout RecordDecoder) throws(RecordError) {
        self = try decoder.unit(.string(parts[parts.startIndex]), .string(parts[parts.startIndex + 1]))
    }
}

/// A campaign's unit: `[campaign, install|customer, id]`.
extension CampaignUnit: StageRecordKey {
    static var stageKeyLength: Int { 3 }

    func stageKey(_ encoder: RecordEncoder) -> [JSONOutput] { [encoder.text(campaign)] + encoder.unit(unit) }

    init(stageKey parts: ArraySlice<String>, _ decoder: inout RecordDecoder) throws(RecordError) {
        let campaign = decoder.symbol(parts[parts.startIndex])
        self.init(campaign: campaign, unit: try UnitKey(stageKey: parts.dropFirst(), &decoder))
    }
}
