/// Everything one worker learns from its share of the input: the accounting and the partial
/// states of attribution and exposure, with the symbol table their events were interned into.
/// Partials merge in any order to the same whole.
public struct PartialState: Sendable {
    public var symbols = SymbolTable()
    public var accounting = Accounting()
    public var attribution = AttributionState()
    public var grona = GronaState()

    public init() {}

    /// Routes an accepted event (interned into `symbols`) to the analysis that uses it.
    public mutating func add(_ event: Event) {
        switch event {
        case .linkClick, .linkOpen, .clickBind: attribution.add(event, symbols: symbols)
        case .decision, .impression, .order, .grant: grona.add(event, symbols: symbols)
        }
    }

    public mutating func merge(_ other: PartialState) {
        let translation = other.symbols.translation(into: &symbols)
        accounting.merge(other.accounting)
        attribution.merge(other.attribution, translation, symbols: symbols)
        grona.merge(other.grona, translation, symbols: symbols)
    }

    /// Attribution rows and totals.
    public func attributionResult() -> AttributionResult {
        attribution.result(symbols: symbols)
    }

    /// Exposure rows and the preview audit.
    public func gronaResult(configuration: Configuration?, scope: PreviewScope) -> GronaResult {
        grona.result(configuration: configuration, scope: scope, symbols: symbols)
    }
}
