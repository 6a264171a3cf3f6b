/// The mergeable partial state of attribution (docs/ATTRIBUTION.md): one record per `clickId` of
/// clicks, per `openId` of opens and per `clickId` of bindings.
///
/// Records merge by key with order-independent rules, so states built from any split of the
/// input (by file, by thread, by key partition) merge into the same result.
struct AttributionState: Sendable {
    var clicks = SymbolKeyedRecords<ClickRecord>()
    var opens = SymbolKeyedRecords<OpenRecord>()
    var bindings = SymbolKeyedRecords<BindingRecord>()

    init() {}

    /// Adds a FunnelsGrove event whose symbols belong to `symbols`; other events are ignored.
    mutating func add(_ event: Event, symbols: SymbolTable) {
        switch event {
        case .linkClick(let click):
            clicks.upsert(click.clickId, { ClickRecord(click) }, { $0.merge(ClickRecord(click), symbols: symbols) })
        case .linkOpen(let open):
            opens.upsert(open.openId, { OpenRecord(open) }, { $0.add(open, symbols: symbols) })
        case .clickBind(let bind):
            bindings.upsert(bind.clickId, { BindingRecord(bind) }, { $0.add(bind, symbols: symbols) })
        default:
            break
        }
    }

    /// Starts reading the index entry `add(event)` will look up first.
    func prefetch(_ event: Event) {
        switch event {
        case .linkClick(let click): clicks.prefetch(click.clickId)
        case .linkOpen(let open): opens.prefetch(open.openId)
        case .clickBind(let bind): bindings.prefetch(bind.clickId)
        default: break
        }
    }

    /// Merges a state whose symbols `translation` maps into `symbols` (nil: they are its already).
    /// Releases each store of `other` as soon as it is merged.
    mutating func merge(_ other: consuming AttributionState, _ translation: SymbolTranslation?, symbols: SymbolTable) {
        clicks.merge(take(&other.clicks, .init()), translation, symbols: symbols)
        opens.merge(take(&other.opens, .init()), translation, symbols: symbols)
        bindings.merge(take(&other.bindings, .init()), translation, symbols: symbols)
    }
}
