/// The unit a decision assigns: `install:<installId>` or `customer:<customerId>`.
public struct UnitKey: Hashable, Sendable {
    public var kind: DecisionUnit
    public var id: Symbol

    func translated(_ translation: SymbolTranslation) -> UnitKey {
        UnitKey(kind: kind, id: translation[id])
    }
}

/// A campaign and a unit: the key multi-variant exclusion and first exposure work on.
struct CampaignUnit: Hashable {
    var campaign: Symbol
    var unit: UnitKey
}

/// A campaign and one of its variants: the key of an `exposure.csv` row.
struct CampaignVariant: Hashable {
    var campaign: Symbol
    var variant: Symbol
}
