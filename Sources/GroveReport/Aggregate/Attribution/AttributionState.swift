/// The mergeable partial state of attribution (SPEC section 3): one record per `clickId` of
/// clicks, per `openId` of opens and per `clickId` of bindings.
///
/// Records merge by key with order-independent rules, so states built from any split of the
/// input (by file, by thread, by key partition) merge into the same result.
public struct AttributionState: Sendable, Equatable {
    var clicks: [ByteString: ClickRecord] = [:]
    var opens: [ByteString: OpenRecord] = [:]
    var bindings: [ByteString: BindingRecord] = [:]

    public init() {}

    /// Adds a FunnelsGrove event; other events are not attribution's business.
    public mutating func add(_ event: Event) {
        switch event {
        case .linkClick(let click): clicks.mergeRecord(ClickRecord(click), at: click.clickId)
        case .linkOpen(let open): opens.mergeRecord(OpenRecord(open), at: open.openId)
        case .clickBind(let bind): bindings.mergeRecord(BindingRecord(bind), at: bind.clickId)
        default: break
        }
    }

    public mutating func merge(_ other: AttributionState) {
        clicks.mergeRecords(from: other.clicks)
        opens.mergeRecords(from: other.opens)
        bindings.mergeRecords(from: other.bindings)
    }
}
