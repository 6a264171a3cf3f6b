/// The unit a decision assigns: `install:<installId>` or `customer:<customerId>`.
struct UnitKey: TranslatableKey, Hashable {
    var kind: DecisionUnit
    var id: Symbol

    var indexHash: UInt64 { Self.mixed(UInt64(kind.rawValue) << 32 | UInt64(id.raw)) }

    func translated(_ translation: SymbolTranslation) -> UnitKey {
        UnitKey(kind: kind, id: translation[id])
    }
}

/// A campaign and a unit: the key multi-variant exclusion and first exposure work on.
struct CampaignUnit: TranslatableKey {
    var campaign: Symbol
    var unit: UnitKey

    /// The unit's hash with the campaign folded in and mixed again: the key has more bits than
    /// one 64-bit word packs, and two keys meet only by chance.
    var indexHash: UInt64 { Self.mixed(unit.indexHash ^ UInt64(campaign.raw)) }

    func translated(_ translation: SymbolTranslation) -> CampaignUnit {
        CampaignUnit(campaign: translation[campaign], unit: unit.translated(translation))
    }
}

/// A Grona event kept in its campaign's install record (`ExposureState.installs`).
protocol CampaignInstallEvent {
    var campaignId: Symbol { get }
    var subject: GronaSubject { get }
}

extension CampaignInstallEvent {
    /// The key of that record: the campaign and the install.
    var installKey: SymbolPair { SymbolPair(first: campaignId, second: subject.installId) }
}

extension Decision: CampaignInstallEvent {}
extension Impression: CampaignInstallEvent {}
extension Grant: CampaignInstallEvent {}
