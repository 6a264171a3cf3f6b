/// The mergeable partial state of exposure analysis and the preview audit (docs/EXPOSURE.md, docs/AUDIT.md).
///
/// Events are routed by their flags as they arrive: preview and consent-denied events are only
/// counted; clean events go to the per-(campaign, install) records that preview-install exclusion
/// needs; order lines go, all of them, to per-`orderId` deduplication. Every map merges by key.
struct ExposureState: Sendable {
    var counters = SymbolKeyedRecords<CampaignCounters>()
    /// Keyed by (campaign, installId).
    var installs = PairKeyedRecords<InstallRecord>()
    var orders = SymbolKeyedRecords<OrderRecord>()
    var totals = AuditTotals()

    init() {}

    /// Adds a Grona event whose symbols belong to `symbols`; other events are ignored.
    mutating func add(_ event: Event, symbols: SymbolTable) {
        switch event {
        case .decision(let decision):
            let key = decision.installKey
            count(decision.campaignId) { counters in
                counters.decisions += 1
                if decision.isPreview { counters.previewDecisions += 1 }
                // A pin never bypasses identification: a customer-unit campaign shows only to an
                // identified shopper, preview or not, consent regardless.
                if decision.isPreview && decision.unit == .customer && decision.subject.customerId == nil {
                    counters.previewUnidentifiedCustomer += 1
                }
            }
            guard route(.decision, decision.isPreview, decision.subject, key) else { return }
            guard let unit = Self.unitKey(decision) else {
                count(decision.campaignId) { $0.missingCustomer += 1 }
                return
            }
            installs.modify(key, default: InstallRecord.init) { $0.add(decision, unit: unit) }
        case .impression(let impression):
            let key = impression.installKey
            count(impression.campaignId) { if impression.isPreview { $0.previewImpressions += 1 } }
            guard route(.impression, impression.isPreview, impression.subject, key) else { return }
            installs.modify(key, default: InstallRecord.init) { $0.add(impression) }
        case .grant(let grant):
            let key = grant.installKey
            count(grant.campaignId) { if grant.isPreview { $0.previewGrants += 1 } }
            guard route(.grant, grant.isPreview, grant.subject, key) else { return }
            installs.modify(key, default: InstallRecord.init) { $0.add(grant) }
        case .previewLink(let link):
            add(link)
        case .order(let order):
            _ = route(.order, order.isPreview, order.subject, nil)
            let record = OrderRecord(earliest: order)
            orders.upsert(order.orderId, { record }, { $0.merge(record, symbols: symbols) })
        default:
            break
        }
    }

    /// Starts reading the index entry of the install or order `add(event)` will look up.
    func prefetch(_ event: Event) {
        switch event {
        case .decision(let decision): installs.prefetch(decision.installKey)
        case .impression(let impression): installs.prefetch(impression.installKey)
        case .grant(let grant): installs.prefetch(grant.installKey)
        case .order(let order): orders.prefetch(order.orderId)
        default: break
        }
    }

    /// Counts a preview link by kind and outcome and checks it; a paired link makes its install a
    /// preview install of its campaign, whatever its kind or consent. Never a preview or
    /// consent-denied event itself.
    private mutating func add(_ link: PreviewLink) {
        let violations = LinkViolations(link)
        totals.previewLinks.count(link.kind, link.outcome)
        totals.linkViolations.add(violations)
        guard link.outcome == .paired, let campaign = link.campaignId else { return }
        count(campaign) { counters in
            counters.previewPairings += 1
            counters.linkViolations.add(violations)
        }
        let key = SymbolPair(first: campaign, second: link.subject.installId)
        installs.modify(key, default: InstallRecord.init) { $0.isPreviewInstall = true }
    }

    private mutating func count(_ campaign: Symbol, _ update: (inout CampaignCounters) -> Void) {
        counters.modify(campaign, default: CampaignCounters.init, update)
    }

    /// Counts a preview or consent-denied event (marking a preview install of the campaign);
    /// true when the event is clean and goes on to the analysis.
    private mutating func route(
        _ type: EventType, _ isPreview: Bool, _ subject: GronaSubject, _ key: SymbolPair?
    ) -> Bool {
        if isPreview {
            totals.preview[type.rawValue] += 1
            if let key {
                installs.modify(key, default: InstallRecord.init) { $0.isPreviewInstall = true }
            }
            return false
        }
        if subject.consent == .denied {
            totals.consentDenied[type.rawValue] += 1
            return false
        }
        return true
    }

    /// The decision's unit key; nil for a customer-unit decision without `customerId`.
    private static func unitKey(_ decision: Decision) -> UnitKey? {
        switch decision.unit {
        case .install: return UnitKey(kind: .install, id: decision.subject.installId)
        case .customer: return decision.subject.customerId.map { UnitKey(kind: .customer, id: $0) }
        }
    }

    /// Merges a state whose symbols `translation` maps into `symbols`.
    /// Releases each store of `other` as soon as it is merged.
    mutating func merge(_ other: consuming ExposureState, _ translation: SymbolTranslation, symbols: SymbolTable) {
        counters.merge(take(&other.counters, .init()), translation, symbols: symbols)
        installs.merge(take(&other.installs, .init()), translation, symbols: symbols)
        orders.merge(take(&other.orders, .init()), translation, symbols: symbols)
        totals.merge(other.totals, symbols: symbols)
    }
}
