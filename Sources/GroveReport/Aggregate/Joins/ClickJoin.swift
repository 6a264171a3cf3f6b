/// Everything attribution knows about one `clickId` once opens and bindings are resolved to it
/// (join stage 1, keyed by clickId): the click, if there is one, and the counts of what joined.
struct ClickJoin: MergeableRecord {
    /// The click's campaign (`utm_campaign` or `(none)`) and route, when a click has this id.
    var click: (campaign: Symbol, route: Route)?
    /// The ts of the click's earliest line, when a click has this id.
    var clickTs: Instant?
    /// The ts of the binding's winning line, when a binding has this id.
    var bindTs: Instant?
    /// Distinct opens whose original names this click.
    var opens = 0
    var openRetries = 0
    var openConflicts = 0
    /// Distinct bindings of this click (0 or 1 once merged).
    var bindings = 0
    var bindRetries = 0
    var bindConflicts = 0

    mutating func merge(_ other: ClickJoin, symbols: SymbolTable) {
        if click == nil { click = other.click }
        if clickTs == nil { clickTs = other.clickTs }
        if bindTs == nil { bindTs = other.bindTs }
        opens += other.opens
        openRetries += other.openRetries
        openConflicts += other.openConflicts
        bindings += other.bindings
        bindRetries += other.bindRetries
        bindConflicts += other.bindConflicts
    }

    func translated(_ translation: SymbolTranslation) -> ClickJoin {
        var copy = self
        copy.click = click.map { (translation[$0.campaign], $0.route) }
        return copy
    }
}

/// The attribution totals that are not sums of campaign rows (docs/ATTRIBUTION.md).
struct AttributionExtras: MergeableRecord, Equatable {
    var duplicateClicks = 0
    var orphanOpens = 0
    var unresolvedOpens = 0
    var orphanBinds = 0
    /// Clicks whose binding is outside `--bind-window` (not attributed), once per clickId.
    var bindsOutsideWindow = 0

    mutating func merge(_ other: AttributionExtras, symbols: SymbolTable) {
        duplicateClicks += other.duplicateClicks
        orphanOpens += other.orphanOpens
        unresolvedOpens += other.unresolvedOpens
        orphanBinds += other.orphanBinds
        bindsOutsideWindow += other.bindsOutsideWindow
    }

    func translated(_ translation: SymbolTranslation) -> AttributionExtras { self }
}

extension AttributionCounts: MergeableRecord {
    mutating func merge(_ other: AttributionCounts, symbols: SymbolTable) { add(other) }

    func translated(_ translation: SymbolTranslation) -> AttributionCounts { self }
}
