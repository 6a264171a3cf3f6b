/// What exposure keeps of one install within one campaign: whether it is a preview install of
/// the campaign, and its clean (not preview, not consent-denied) decisions, impressions and grants.
///
/// Whether the clean events count depends on the preview flag, which any line may set, so they
/// are held per install until every partial has been merged.
struct InstallRecord: MergeableRecord, Sendable, Equatable {
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
        var variant: ByteString
        var firstExposure: Instant
        var control: Bool
        var lines: Int
    }

    struct VariantCount: Sendable, Equatable {
        var variant: ByteString
        var lines: Int
    }

    /// Clean events of the install: what unit-scope preview exclusion removes.
    var cleanEvents: Int {
        decisions.reduce(0) { $0 + $1.lines } + impressions.reduce(0) { $0 + $1.lines } + grants
    }

    static func previewInstall() -> InstallRecord {
        var record = InstallRecord()
        record.isPreviewInstall = true
        return record
    }

    /// A record holding one clean decision for `unit`.
    init(decision: Decision, unit: UnitKey) {
        if Self.leaks(decision.isPreview, decision.subject) { leaked = 1; return }
        decisions = [UnitDecision(
            unit: unit, variant: decision.variantId, firstExposure: decision.ts, control: decision.control, lines: 1)]
    }

    init(impression: Impression) {
        if Self.leaks(impression.isPreview, impression.subject) { leaked = 1; return }
        impressions = [VariantCount(variant: impression.variantId, lines: 1)]
    }

    init(grant: Grant) {
        if Self.leaks(grant.isPreview, grant.subject) { leaked = 1; return }
        grants = 1
    }

    private init() {}

    /// The analysis stage's own check that nothing excluded reached it.
    private static func leaks(_ isPreview: Bool, _ subject: GronaSubject) -> Bool {
        isPreview || subject.consent == .denied
    }

    mutating func merge(_ other: InstallRecord) {
        isPreviewInstall = isPreviewInstall || other.isPreviewInstall
        grants += other.grants
        leaked += other.leaked
        for decision in other.decisions {
            if let index = decisions.firstIndex(where: { $0.unit == decision.unit && $0.variant == decision.variant }) {
                decisions[index].firstExposure = min(decisions[index].firstExposure, decision.firstExposure)
                decisions[index].control = decisions[index].control || decision.control
                decisions[index].lines += decision.lines
            } else {
                decisions.append(decision)
            }
        }
        for impression in other.impressions {
            if let index = impressions.firstIndex(where: { $0.variant == impression.variant }) {
                impressions[index].lines += impression.lines
            } else {
                impressions.append(impression)
            }
        }
    }
}
