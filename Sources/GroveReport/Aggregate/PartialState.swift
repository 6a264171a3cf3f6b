/// Everything one worker learns from its share of the input: the accounting and the partial
/// states of attribution and exposure. Partials merge in any order to the same whole.
public struct PartialState: Sendable, Equatable {
    public var accounting = Accounting()
    public var attribution = AttributionState()
    public var grona = GronaState()

    public init() {}

    /// Routes an accepted event to the analysis that uses it.
    public mutating func add(_ event: Event) {
        switch event {
        case .linkClick, .linkOpen, .clickBind: attribution.add(event)
        case .decision, .impression, .order, .grant: grona.add(event)
        }
    }

    public mutating func merge(_ other: PartialState) {
        accounting.merge(other.accounting)
        attribution.merge(other.attribution)
        grona.merge(other.grona)
    }
}
