/// The mergeable partial state of exposure analysis and the preview audit (SPEC sections 4 and 5).
///
/// Events are routed by their flags as they arrive: preview and consent-denied events are only
/// counted; clean events go to the per-(campaign, install) records that preview-install exclusion
/// needs; order lines go, all of them, to per-`orderId` deduplication. Every map merges by key.
public struct GronaState: Sendable, Equatable {
    var counters: [ByteString: CampaignCounters] = [:]
    var installs: [CampaignInstall: InstallRecord] = [:]
    var orders: [ByteString: OrderRecord] = [:]
    /// Accepted preview events by Grona type (orders included), consent regardless.
    var previewTotals = [Int](repeating: 0, count: EventType.grona.count)
    /// Accepted consent-denied events that are not preview, by Grona type.
    var consentDeniedTotals = [Int](repeating: 0, count: EventType.grona.count)

    public init() {}

    /// Adds a Grona event; other events are not exposure's business.
    public mutating func add(_ event: Event) {
        switch event {
        case .decision(let decision):
            let key = CampaignInstall(campaign: decision.campaignId, installId: decision.subject.installId)
            counters[decision.campaignId, default: CampaignCounters()].decisions += 1
            counters[decision.campaignId]!.previewDecisions += decision.isPreview ? 1 : 0
            guard route(.decision, decision.isPreview, decision.subject, key) else { return }
            guard let unit = Self.unitKey(decision) else {
                counters[decision.campaignId]!.missingCustomer += 1
                return
            }
            installs.mergeRecord(InstallRecord(decision: decision, unit: unit), at: key)
        case .impression(let impression):
            let key = CampaignInstall(campaign: impression.campaignId, installId: impression.subject.installId)
            counters[impression.campaignId, default: CampaignCounters()].previewImpressions += impression.isPreview ? 1 : 0
            guard route(.impression, impression.isPreview, impression.subject, key) else { return }
            installs.mergeRecord(InstallRecord(impression: impression), at: key)
        case .grant(let grant):
            let key = CampaignInstall(campaign: grant.campaignId, installId: grant.subject.installId)
            counters[grant.campaignId, default: CampaignCounters()].previewGrants += grant.isPreview ? 1 : 0
            guard route(.grant, grant.isPreview, grant.subject, key) else { return }
            installs.mergeRecord(InstallRecord(grant: grant), at: key)
        case .order(let order):
            _ = route(.order, order.isPreview, order.subject, nil)
            orders.mergeRecord(OrderRecord(earliest: order), at: order.orderId)
        default:
            break
        }
    }

    /// Counts a preview or consent-denied event (marking a preview install of the campaign);
    /// true when the event is clean and goes on to the analysis.
    private mutating func route(
        _ type: EventType, _ isPreview: Bool, _ subject: GronaSubject, _ key: CampaignInstall?
    ) -> Bool {
        if isPreview {
            previewTotals[type.rawValue] += 1
            if let key { installs.mergeRecord(.previewInstall(), at: key) }
            return false
        }
        if subject.consent == .denied {
            consentDeniedTotals[type.rawValue] += 1
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

    public mutating func merge(_ other: GronaState) {
        counters.mergeRecords(from: other.counters)
        installs.mergeRecords(from: other.installs)
        orders.mergeRecords(from: other.orders)
        for index in previewTotals.indices {
            previewTotals[index] += other.previewTotals[index]
            consentDeniedTotals[index] += other.consentDeniedTotals[index]
        }
    }
}
