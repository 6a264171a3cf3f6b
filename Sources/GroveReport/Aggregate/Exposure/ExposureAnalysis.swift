/// The finishing stage of exposure analysis (SPEC sections 4 and 5), run once on the merged state:
/// preview-install exclusion, multi-variant exclusion, units and first exposure, the order join,
/// lift and sample-ratio mismatch, and the preview audit.
extension GronaState {
    /// z for a two-sided 95% interval.
    static let criticalValue95 = 1.959963984540054

    /// Runs the analysis on a merged state whose symbols belong to `symbols`.
    public func result(configuration: Configuration?, scope: PreviewScope, symbols: SymbolTable) -> GronaResult {
        var symbols = symbols
        let configured = ConfiguredCampaigns(configuration, symbols: &symbols)
        var analysis = Analysis()
        analysis.excludePreviewInstalls(installs, scope: scope)
        analysis.assignUnits()
        analysis.joinOrders(orders.records)
        analysis.addConfiguredVariants(configured)
        let exposure = analysis.campaigns(counters: counters, configured: configured, symbols: symbols)
        let audit = previewAudit(analysis, configured: configured, symbols: symbols)
        return GronaResult(exposure: exposure, audit: audit)
    }

    private func previewAudit(_ analysis: Analysis, configured: ConfiguredCampaigns, symbols: SymbolTable) -> PreviewAudit {
        var names = Set(counters.keys)
        names.formUnion(configured.campaigns.keys)
        var campaigns: [AuditCampaign] = []
        var violations = AuditViolations()
        for (name, symbol) in names.map({ (symbols.string($0), $0) }).sorted(by: { $0.0 < $1.0 }) {
            let counts = counters[symbol] ?? CampaignCounters()
            var campaign = AuditCampaign(campaign: name)
            campaign.previewDecisions = counts.previewDecisions
            campaign.previewImpressions = counts.previewImpressions
            campaign.previewGrants = counts.previewGrants
            campaign.previewInstalls = analysis.previewInstalls[symbol, default: 0]
            campaign.previewContaminated = analysis.contaminated[symbol, default: 0]
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
            campaigns: campaigns, previewTotals: previewTotals, consentDeniedTotals: consentDeniedTotals,
            violations: violations, leakCheck: analysis.leaked)
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

/// The working state of one analysis run.
private struct Analysis {
    /// A unit's single variant in a campaign, and whether a used order converted it.
    struct Exposure {
        var row: CampaignVariant
        var firstExposure: Instant
        var converted = false
    }

    var previewInstalls: [Symbol: Int] = [:]
    var contaminated: [Symbol: Int] = [:]
    var multiVariantUnits: [Symbol: Int] = [:]
    var leaked = 0
    var assignments: [CampaignUnit: [InstallRecord.UnitDecision]] = [:]
    var rows: [CampaignVariant: VariantCounts] = [:]
    var impressions: [CampaignVariant: Int] = [:]
    var exposures: [UnitKey: [Exposure]] = [:]

    /// Rule 2: drops (under unit scope) every clean event of a campaign's preview installs.
    mutating func excludePreviewInstalls(_ installs: PairKeyedRecords<InstallRecord>, scope: PreviewScope) {
        for (key, record) in zip(installs.keys, installs.records) {
            let campaign = key.first
            leaked += record.leaked
            if record.isPreviewInstall {
                previewInstalls[campaign, default: 0] += 1
                if scope == .unit {
                    contaminated[campaign, default: 0] += record.cleanEvents
                    continue
                }
            }
            for decision in record.decisions {
                let unit = CampaignUnit(campaign: campaign, unit: decision.unit)
                var decisions = assignments[unit, default: []]
                if let index = decisions.firstIndex(where: { $0.variant == decision.variant }) {
                    decisions[index].firstExposure = min(decisions[index].firstExposure, decision.firstExposure)
                    decisions[index].control = decisions[index].control || decision.control
                } else {
                    decisions.append(decision)
                }
                assignments[unit] = decisions
            }
            for impression in record.impressions {
                impressions[CampaignVariant(campaign: campaign, variant: impression.variant), default: 0] +=
                    impression.lines
            }
        }
    }

    /// Rule 3, then units, first exposure and control per (campaign, variant).
    mutating func assignUnits() {
        for (key, decisions) in assignments {
            guard decisions.count == 1, let decision = decisions.first else {
                multiVariantUnits[key.campaign, default: 0] += 1
                continue
            }
            let rowKey = CampaignVariant(campaign: key.campaign, variant: decision.variant)
            rows[rowKey, default: VariantCounts()].units += 1
            if decision.control { rows[rowKey]!.control = true }
            exposures[key.unit, default: []].append(Exposure(row: rowKey, firstExposure: decision.firstExposure))
        }
        assignments = [:]
    }

    /// Matches each used order to the units it names (`install:` and `customer:`) at or after
    /// their first exposure.
    mutating func joinOrders(_ orders: some Sequence<OrderRecord>) {
        for record in orders where record.isUsable {
            let order = record.earliest
            if order.isPreview || order.subject.consent == .denied { leaked += 1 }
            var units = [UnitKey(kind: .install, id: order.subject.installId)]
            if let customerId = order.subject.customerId { units.append(UnitKey(kind: .customer, id: customerId)) }
            for unit in units {
                guard var matches = exposures[unit] else { continue }
                for index in matches.indices where order.ts >= matches[index].firstExposure {
                    matches[index].converted = true
                    rows[matches[index].row]!.orders += 1
                    rows[matches[index].row]!.revenueMinor += Int128(order.amountMinor)
                }
                exposures[unit] = matches
            }
        }
        for matches in exposures.values {
            for exposure in matches where exposure.converted { rows[exposure.row]!.convertedUnits += 1 }
        }
    }

    /// Every variant the configuration lists gets a row, even without units.
    mutating func addConfiguredVariants(_ configured: ConfiguredCampaigns) {
        for (campaign, settings) in configured.campaigns {
            for variant in settings.variants {
                let key = CampaignVariant(campaign: campaign, variant: variant.id)
                if rows[key] == nil { rows[key] = VariantCounts() }
            }
        }
    }

    /// The campaigns with rows, each with impressions, lift and SRM filled in.
    func campaigns(
        counters: SymbolKeyedRecords<CampaignCounters>, configured: ConfiguredCampaigns, symbols: SymbolTable
    ) -> [ExposureCampaign] {
        var byCampaign: [Symbol: [ExposureRow]] = [:]
        for (key, counts) in rows {
            var row = ExposureRow(campaign: symbols.string(key.campaign), variant: symbols.string(key.variant))
            row.control = counts.control
            row.units = counts.units
            row.convertedUnits = counts.convertedUnits
            row.orders = counts.orders
            row.revenueMinor = counts.revenueMinor
            row.impressions = impressions[key, default: 0]
            byCampaign[key.campaign, default: []].append(row)
        }
        let named = byCampaign.map { (symbols.string($0.key), $0.key, $0.value) }.sorted { $0.0 < $1.0 }
        return named.map { name, symbol, rows in
            var variants = rows.sorted { $0.variant < $1.variant }
            Lift.fill(&variants)
            let weights = configured.campaigns[symbol].map { settings in
                settings.variants.map { (symbols.string($0.id), $0.weight) }
            }
            let srm = SampleRatioMismatch.pValue(variants, configuredWeights: weights)
            for index in variants.indices { variants[index].srmPValue = srm }
            return ExposureCampaign(
                campaign: name, srmPValue: srm, missingCustomer: counters[symbol]?.missingCustomer ?? 0,
                previewContaminated: contaminated[symbol, default: 0],
                multiVariantUnits: multiVariantUnits[symbol, default: 0], variants: variants)
        }
    }
}

/// The counts of one (campaign, variant) while the analysis runs.
private struct VariantCounts {
    var control = false
    var units = 0
    var convertedUnits = 0
    var orders = 0
    var revenueMinor: Int128 = 0
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
            variants[index].ciLow = difference - GronaState.criticalValue95 * standardError
            variants[index].ciHigh = difference + GronaState.criticalValue95 * standardError
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
