/// `unit_conversion`, keyed by unit: the unit's exposures and the used orders that name it.
extension UnitConversion: KeyedStageRecord {
    static let kind = "unit_conversion"
    static var store: WritableKeyPath<PartialState, KeyedRecords<HashedIndex<UnitKey>, UnitConversion>> {
        \.joins.unitConversions
    }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [
            JSONOutput.Member("exposures", .array(exposures.map {
                .array([encoder.text($0.campaign), encoder.text($0.variant), encoder.instant($0.firstExposure)])
            })),
            JSONOutput.Member("orders", .array(orders.map { .array([encoder.instant($0.ts), .integer(Int($0.amountMinor))]) })),
        ]
    }

    static func decoded(key: UnitKey, _ decoder: inout RecordDecoder) throws(RecordError) -> UnitConversion {
        var conversion = UnitConversion()
        for entry in try decoder.array("exposures") {
            guard case .array(let parts) = entry, parts.count == 3 else { throw decoder.failure("bad exposure") }
            conversion.exposures.append(.init(
                campaign: decoder.symbol(try decoder.string(parts[0])), variant: decoder.symbol(try decoder.string(parts[1])),
                firstExposure: try decoder.instant(parts[2])))
        }
        for entry in try decoder.array("orders") {
            guard case .array(let parts) = entry, parts.count == 2 else { throw decoder.failure("bad order") }
            conversion.orders.append(.init(ts: try decoder.instant(parts[0]), amountMinor: Int64(try decoder.value(number: parts[1]))))
        }
        return conversion
    }
}
