/// The exposure rows and the preview audit (SPEC sections 4 and 5), built from a state past every
/// join stage: units, conversions and exclusion counts are final; this adds the rows the
/// configuration lists, lift against the control, sample-ratio mismatch and the audit.
extension PartialState {
    /// z for a two-sided 95% interval.
    static let criticalValue95 = 1.959963984540054

    public func exposureReport(configuration: Configuration?) -> GronaResult {
        var symbols = self.symbols
        let configured = ConfiguredCampaigns(configuration, symbols: &symbols)
        var rowsByCampaign: [Symbol: [(variant: Symbol, counts: VariantCounts)]] = [:]
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) where counts.units > 0 {
            rowsByCampaign[key.first, default: []].append((key.second, counts))
        }
        for (campaign, settings) in configured.campaigns {
            for variant in settings.variants where joins.variants[SymbolPair(first: campaign, second: variant.id)]?.units ?? 0 == 0 {
                let counts = joins.variants[SymbolPair(first: campaign, second: variant.id)] ?? VariantCounts()
                rowsByCampaign[campaign, default: []].append((variant.id, counts))
            }
        }
        let exposure = rowsByCampaign.map { (symbols.string($0.key), $0.key, $0.value) }
            .sorted { $0.0 < $1.0 }
            .map { name, campaign, rows in
                var variants = rows.map { row in ExposureRow(campaign: name, variant: symbols.string(row.variant), counts: row.counts) }
                    .sorted { $0.variant < $1.variant }
                Lift.fill(&variants)
                let weights = configured.campaigns[campaign].map { settings in
                    settings.variants.map { (symbols.string($0.id), $0.weight) }
                }
                let srm = SampleRatioMismatch.pValue(variants, configuredWeights: weights)
                for index in variants.indices { variants[index].srmPValue = srm }
                let stats = joins.campaignStats[campaign] ?? CampaignStats()
                return ExposureCampaign(
                    campaign: name, srmPValue: srm, missingCustomer: grona.counters[campaign]?.missingCustomer ?? 0,
                    previewContaminated: stats.contaminated, multiVariantUnits: stats.multiVariantUnits, variants: variants)
            }
        return GronaResult(exposure: exposure, audit: previewAudit(configured, symbols: symbols))
    }

    private func previewAudit(_ configured: ConfiguredCampaigns, symbols: SymbolTable) -> PreviewAudit {
        var names = Set(grona.counters.keys)
        names.formUnion(configured.campaigns.keys)
        var campaigns: [AuditCampaign] = []
        var violations = AuditViolations()
        for (name, symbol) in names.map({ (symbols.string($0), $0) }).sorted(by: { $0.0 < $1.0 }) {
            let counts = grona.counters[symbol] ?? CampaignCounters()
            let stats = joins.campaignStats[symbol] ?? CampaignStats()
            var campaign = AuditCampaign(campaign: name)
            campaign.previewDecisions = counts.previewDecisions
            campaign.previewImpressions = counts.previewImpressions
            campaign.previewGrants = counts.previewGrants
            campaign.previewInstalls = stats.previewInstalls
            campaign.previewContaminated = stats.contaminated
            campaign.violations.previewGrant = counts.previewGrants
            campaign.violations.missingCustomer = counts.missingCustomer
            if configured.campaigns[symbol]?.enabled == false {
                campaign.violations.previewOnDisabledCampaign = counts.previewEvents
                campaign.violations.decisionOnDisabledCampaign = counts.decisions
            }
            violations.add(campaign.violations)
            campaigns.append(campaign)
        }
        return PreviewAudit(
            campaigns: campaigns, previewTotals: grona.totals.preview, consentDeniedTotals: grona.totals.consentDenied,
            violations: violations, leakCheck: grona.totals.leaked)
    }
}

/// The configuration with its ids as symbols of the state's table.
private struct ConfiguredCampaigns {
    struct Campaign {
        var enabled: Bool
        var variants: [(id: Symbol, weight: Double)]
    }

    var campaigns: [Symbol: Campaign] = [:]

    init(_ configuration: Configuration?, symbols: inout SymbolTable) {
        for campaign in configuration?.campaigns.values ?? [:].values {
            let variants = campaign.variants.map { (symbols.intern($0.id), $0.weight) }
            campaigns[symbols.intern(campaign.id)] = Campaign(enabled: campaign.enabled, variants: variants)
        }
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

/// Control-versus-variant statistics of SPEC section 4.
enum Lift {
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
            variants[index].ciLow = difference - PartialState.criticalValue95 * standardError
            variants[index].ciHigh = difference + PartialState.criticalValue95 * standardError
            variants[index].pValue = NormalDistribution.twoSidedPValue(z: difference / standardError)
        }
    }
}

/// The sample-ratio-mismatch test of SPEC section 4.
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
