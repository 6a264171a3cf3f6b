/// Where an accepted event goes: which analysis, and which shard of a worker's stores.
extension Event {
    /// FunnelsGrove's link events go to attribution, Grona's events to exposure.
    var isAttribution: Bool {
        switch self {
        case .linkClick, .linkOpen, .clickBind: true
        case .decision, .impression, .order, .grant, .previewLink: false
        }
    }

    /// The symbol whose shard places the record the event adds to: the partition symbol of that
    /// store's key (`PartitionKey`). Grona's install events, preview ones included, go to their
    /// `(campaign, install)` record; a preview link pairs that same record.
    var partitionSymbol: Symbol {
        switch self {
        case .linkClick(let click): click.clickId
        case .linkOpen(let open): open.openId
        case .clickBind(let bind): bind.clickId
        case .decision(let decision): decision.installKey.partitionSymbol
        case .impression(let impression): impression.installKey.partitionSymbol
        case .grant(let grant): grant.installKey.partitionSymbol
        case .previewLink(let link): link.subject.installId
        case .order(let order): order.orderId
        }
    }
}
