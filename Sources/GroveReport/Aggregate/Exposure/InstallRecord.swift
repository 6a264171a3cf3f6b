/// What exposure keeps of one install within one campaign: whether it is a preview install of
/// the campaign, and its clean (not preview, not consent-denied) decisions, impressions and grants.
///
/// Whether the clean events count depends on the preview flag, which any line may set, so they
/// are held per install until every partial has been merged.
struct InstallRecord: MergeableRecord {
    /// The install produced an accepted preview decision, impression or grant of the campaign.
    var isPreviewInstall = false
    /// Keyed by unit and variant.
    var decisions = SmallMap<UnitVariant, UnitDecision>()
    /// Lines per variant.
    var impressions = SmallMap<Symbol, Int>()
    var grants = 0
    /// Preview or consent-denied events that reached this analysis input; must stay 0.
    var leaked = 0

    /// The clean decisions of one unit for one variant.
    struct UnitDecision: Sendable, Equatable {
        var unit: UnitKey
        var exposure: VariantExposure
        var lines: Int
    }

    struct UnitVariant: Hashable, Sendable {
        var unit: UnitKey
        var variant: Symbol
    }

    /// Clean events of the install: what unit-scope preview exclusion removes.
    var cleanEvents: Int {
        decisions.values.reduce(0) { $0 + $1.lines } + impressions.values.reduce(0, +) + grants
    }

    /// The analysis stage's own check that nothing excluded reached it.
    private mutating func admits(_ isPreview: Bool, _ subject: GronaSubject) -> Bool {
        guard isPreview || subject.consent == .denied else { return true }
        leaked += 1
        return false
    }

    /// Adds a clean decision of `unit`.
    mutating func add(_ decision: Decision, unit: UnitKey) {
        guard admits(decision.isPreview, decision.subject) else { return }
        let exposure = VariantExposure(variant: decision.variantId, firstExposure: decision.ts, control: decision.control)
        add(UnitDecision(unit: unit, exposure: exposure, lines: 1))
    }

    mutating func add(_ impression: Impression) {
        guard admits(impression.isPreview, impression.subject) else { return }
        impressions.update(impression.variantId, default: 0) { $0 += 1 }
    }

    mutating func add(_ grant: Grant) {
        guard admits(grant.isPreview, grant.subject) else { return }
        grants += 1
    }

    mutating func add(_ decision: UnitDecision) {
        decisions.upsert(UnitVariant(unit: decision.unit, variant: decision.exposure.variant), { decision }) { existing in
            existing.exposure.absorb(decision.exposure)
            existing.lines += decision.lines
        }
    }

    mutating func merge(_ other: InstallRecord, symbols: SymbolTable) {
        isPreviewInstall = isPreviewInstall || other.isPreviewInstall
        grants += other.grants
        leaked += other.leaked
        for decision in other.decisions.values { add(decision) }
        for impression in other.impressions.entries {
            impressions.update(impression.key, default: 0) { $0 += impression.value }
        }
    }

    func translated(_ translation: SymbolTranslation) -> InstallRecord {
        var copy = self
        copy.decisions = decisions.map { entry in
            var moved = entry.value
            moved.unit = moved.unit.translated(translation)
            moved.exposure.variant = translation[moved.exposure.variant]
            return .init(key: UnitVariant(unit: moved.unit, variant: moved.exposure.variant), value: moved)
        }
        copy.impressions = impressions.map { .init(key: translation[$0.key], value: $0.value) }
        return copy
    }
}
