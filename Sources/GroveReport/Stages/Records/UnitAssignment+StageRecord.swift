/// `unit_assignment`, keyed by campaign and unit: the variants the unit saw, with first exposure
/// and control.
extension UnitAssignment: KeyedStageRecord {
    static let kind = "unit_assignment"
    static var store: WritableKeyPath<PartialState, KeyedRecords<HashedIndex<CampaignUnit>, UnitAssignment>> {
        \.joins.unitAssignments
    }

    func encoded(_ encoder: RecordEncoder) -> [JSONOutput.Member] {
        [JSONOutput.Member("variants", .array(variants.map { .array(encoder.exposure($0)) }))]
    }

    static func decoded(key: CampaignUnit, _ decoder: inout RecordDecoder) throws(RecordError) -> UnitAssignment {
        var assignment = UnitAssignment()
        for entry in try decoder.array("variants") {
            guard case .array(let parts) = entry, parts.count == 3 else { throw decoder.failure("bad variant") }
            assignment.add(try decoder.exposure(parts[...]))
        }
        return assignment
    }
}
