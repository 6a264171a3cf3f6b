/// What exposure keeps of one install within one campaign: whether it is a preview install of
/// the campaign, and its clean (not preview, not consent-denied) decisions, impressions and grants.
///
/// Whether the clean events count depends on the preview flag, which any line may set, so they
/// are held per install until every partial has been merged.
struct InstallRecord: MergeableRecord {
    /// The install produced an accepted preview decision, impression or grant of the campaign.
    var isPreviewInstall = false
    var decisions: [UnitDecision] = []
    var impressions: [VariantCount] = []
    var grants = 0
    /// Preview or consent-denied events that reached this analysis input; must stay 0.
    var leaked = 0

    /// The clean decisions of one unit for one variant.
    struct UnitDecision: Sendable, Equatable {
        var unit: UnitKey
        var variant: Symbol
        var firstExposure: Instant
        var control: Bool
        var lines: Int
    }

    struct VariantCount: Sendable, Equatable {
        var variant: Symbol
        var lines: Int
    }

    /// Clean events of the install: what unit-scope preview exclusion removes.
    var cleanEvents: Int {
        decisions.reduce(0) { $0 + $1.lines } + impressions.reduce(0) { $0 + $1.lines } + grants
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
        add(UnitDecision(unit: unit, variant: decision.variantId, firstExposure: decision.ts, control: decision.control, lines: 1))
    }

    mutating func add(_ impression: Impression) {
        guard admits(impression.isPreview, impression.subject) else { return }
        add(VariantCount(variant: impression.variantId, lines: 1))
    }

    mutating func add(_ grant: Grant) {
        guard admits(grant.isPreview, grant.subject) else { return }
        grants += 1
    }

    private mutating func add(_ decision: UnitDecision) {
        if let index = decisions.firstIndex(where: { $0.unit == decision.unit && $0.variant == decision.variant }) {
            decisions[index].firstExposure = min(decisions[index].firstExposure, decision.firstExposure)
            decisions[index].control = decisions[index].control || decision.control
            decisions[index].lines += decision.lines
        } else {
            decisions.append(decision)
        }
    }

    private mutating func add(_ impression: VariantCount) {
        if let index = impressions.firstIndex(where: { $0.variant == impression.variant }) {
            impressions[index].lines += impression.lines
        } else {
            impressions.append(impression)
        }
    }

    mutating func merge(_ other: InstallRecord, symbols: SymbolTable) {
        isPreviewInstall = isPreviewInstall || other.isPreviewInstall
        grants += other.grants
        leaked += other.leaked
        for decision in other.decisions { add(decision) }
        for impression in other.impressions { add(impression) }
    }

    func translated(_ translation: SymbolTranslation) -> InstallRecord {
        var copy = self
        copy.decisions = decisions.map { decision in
            var moved = decision
            moved.unit = decision.unit.translated(translation)
            moved.variant = translation[decision.variant]
            return moved
        }
        copy.impressions = impressions.map { VariantCount(variant: translation[$0.variant], lines: $0.lines) }
        return copy
    }
}
