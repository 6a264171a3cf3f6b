/// The exposure rows and the preview audit (docs/EXPOSURE.md, docs/AUDIT.md), built from a state past every
/// join stage: units, conversions and exclusion counts are final; this adds the rows the
/// configuration lists, lift against the control, sample-ratio mismatch and the audit.
extension JoinedState {
    /// The exposure rows by campaign (byte-wise) and variant, and the preview audit.
    func exposureResult(configuration: Configuration?) -> ExposureResult {
        // Campaigns and variants are few: from here on they go by name, and the configuration's
        // names need no symbols.
        let counters = byName(counters)
        let stats = byName(joins.campaignStats)
        var rowsByCampaign: [ByteString: [ByteString: VariantCounts]] = [:]
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) where counts.units > 0 {
            rowsByCampaign[symbols.string(key.first), default: [:]][symbols.string(key.second)] = counts
        }
        for campaign in configuration?.campaigns.values ?? [:].values {
            for variant in campaign.variants where rowsByCampaign[campaign.id]?[variant.id] == nil {
                let key = symbols.lookup(campaign.id).flatMap { first in
                    symbols.lookup(variant.id).map { SymbolPair(first: first, second: $0) }
                }
                rowsByCampaign[campaign.id, default: [:]][variant.id] = key.flatMap { joins.variants[$0] } ?? VariantCounts()
            }
        }
        let exposure = rowsByCampaign.sorted { $0.key < $1.key }.map { name, rows in
            var variants = rows.map { ExposureRow(campaign: name, variant: $0.key, counts: $0.value) }
                .sorted { $0.variant < $1.variant }
            Lift.fill(&variants)
            let weights = configuration?.campaigns[name].map { campaign in campaign.variants.map { ($0.id, $0.weight) } }
            let srm = SampleRatioMismatch.pValue(variants, configuredWeights: weights)
            for index in variants.indices { variants[index].srmPValue = srm }
            let campaignStats = stats[name] ?? CampaignStats()
            return ExposureCampaign(
                campaign: name, srmPValue: srm, missingCustomer: counters[name]?.missingCustomer ?? 0,
                previewContaminated: campaignStats.contaminated, multiVariantUnits: campaignStats.multiVariantUnits,
                variants: variants)
        }
        return ExposureResult(campaigns: exposure, audit: previewAudit(configuration, counters: counters, stats: stats))
    }

    /// A per-campaign store by campaign name.
    private func byName<Record>(_ store: SymbolKeyedRecords<Record>) -> [ByteString: Record] {
        Dictionary(zip(store.keys.map(symbols.string), store.records), uniquingKeysWith: { first, _ in first })
    }

    private func previewAudit(
        _ configuration: Configuration?, counters: [ByteString: CampaignCounters], stats: [ByteString: CampaignStats]
    ) -> PreviewAudit {
        var names = Set(counters.keys)
        names.formUnion(configuration?.campaigns.keys ?? [:].keys)
        var campaigns: [AuditCampaign] = []
        var violations = AuditViolations()
        for name in names.sorted() {
            let counts = counters[name] ?? CampaignCounters()
            let campaignStats = stats[name] ?? CampaignStats()
            var campaign = AuditCampaign(campaign: name)
            campaign.previewDecisions = counts.previewDecisions
            campaign.previewImpressions = counts.previewImpressions
            campaign.previewGrants = counts.previewGrants
            campaign.previewPairings = counts.previewPairings
            campaign.previewInstalls = campaignStats.previewInstalls
            campaign.previewContaminated = campaignStats.contaminated
            campaign.violations.previewGrant = counts.previewGrants
            campaign.violations.missingCustomer = counts.missingCustomer
            campaign.violations.previewUnidentifiedCustomer = counts.previewUnidentifiedCustomer
            campaign.violations.links = counts.linkViolations
            if configuration?.campaigns[name]?.enabled == false {
                campaign.violations.previewOnDisabledCampaign = counts.previewEvents
                campaign.violations.decisionOnDisabledCampaign = counts.decisions
            }
            violations.add(campaign.violations)
            campaigns.append(campaign)
        }
        // Links that paired no campaign (cleared, rejected, ignored) have no campaign to count under.
        violations.links = totals.linkViolations
        return PreviewAudit(
            campaigns: campaigns, previewTotals: totals.preview, consentDeniedTotals: totals.consentDenied,
            previewLinks: totals.previewLinks, violations: violations, leakCheck: totals.leaked)
    }
}

private extension ExposureRow {
    init(campaign: ByteString, variant: ByteString, counts: VariantCounts) {
        self.init(campaign: campaign, variant: variant)
        control = counts.control
        units = counts.units
        convertedUnits = counts.convertedUnits
        orders = counts.orders
        revenueMinor = counts.revenueMinor
        impressions = counts.impressions
    }
}

/// Control-versus-variant statistics of docs/EXPOSURE.md, Control and lift.
enum Lift {
    /// z for a two-sided 95% interval.
    static let criticalValue95 = 1.959963984540054

    /// With exactly one control variant, fills every other variant's lift fields.
    static func fill(_ variants: inout [ExposureRow]) {
        let controls = variants.indices.filter { variants[$0].control }
        guard controls.count == 1, let control = controls.first,
              let controlRate = variants[control].conversionRate
        else { return }
        let controlUnits = Double(variants[control].units)
        for index in variants.indices where index != control {
            guard let rate = variants[index].conversionRate else { continue }
            let units = Double(variants[index].units)
            let difference = rate - controlRate
            variants[index].absDiff = difference
            variants[index].relLift = controlRate == 0 ? nil : difference / controlRate
            let standardError = (rate * (1 - rate) / units + controlRate * (1 - controlRate) / controlUnits).squareRoot()
            guard standardError > 0 else { continue }
            variants[index].ciLow = difference - criticalValue95 * standardError
            variants[index].ciHigh = difference + criticalValue95 * standardError
            variants[index].pValue = NormalDistribution.twoSidedPValue(z: difference / standardError)
        }
    }
}

/// The sample-ratio-mismatch test of docs/EXPOSURE.md, Sample-ratio mismatch.
enum SampleRatioMismatch {
    /// Pearson χ² upper-tail p of units against the configured weights (variants with weight > 0)
    /// or, for a campaign the configuration does not list, equal shares over variants with units.
    static func pValue(_ variants: [ExposureRow], configuredWeights: [(ByteString, Double)]?) -> Double? {
        let observed: [Int]
        let shares: [Double]
        if let configuredWeights {
            let weighted = configuredWeights.filter { $0.1 > 0 }
            observed = weighted.map { variant in variants.first { $0.variant == variant.0 }?.units ?? 0 }
            shares = weighted.map(\.1)
        } else {
            observed = variants.map(\.units).filter { $0 > 0 }
            shares = observed.map { _ in 1 }
        }
        return PearsonChiSquared.upperTailPValue(observed: observed, expectedShares: shares)
    }
}
