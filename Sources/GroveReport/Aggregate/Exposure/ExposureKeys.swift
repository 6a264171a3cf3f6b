/// The unit a decision assigns: `install:<installId>` or `customer:<customerId>`.
struct UnitKey: TranslatableKey {
    var kind: DecisionUnit
    var id: Symbol

    func translated(_ translation: SymbolTranslation) -> UnitKey {
        UnitKey(kind: kind, id: translation[id])
    }
}

/// A campaign and a unit: the key multi-variant exclusion and first exposure work on.
struct CampaignUnit: TranslatableKey {
    var campaign: Symbol
    var unit: UnitKey

    func translated(_ translation: SymbolTranslation) -> CampaignUnit {
        CampaignUnit(campaign: translation[campaign], unit: unit.translated(translation))
    }
}
