/// The exposure rows and the preview audit (docs/EXPOSURE.md, docs/AUDIT.md), built from a state past every
/// join stage: units, conversions and exclusion counts are final; this adds the rows the
/// configuration lists, lift against the control, sample-ratio mismatch and the audit.
extension JoinedState {
    /// The exposure rows by campaign (byte-wise) and variant, at most `maxCampaigns` campaigns
    /// named (`CampaignFold`), and the preview audit, folded the same way.
    func exposureResult(configuration: Configuration?, maxCampaigns: Int = CampaignFold.defaultMaximum) -> ExposureResult {
        // Campaigns and variants go by name from here on (the configuration's names need no
        // symbols). The rows are light entries until the fold is decided: lift and SRM are
        // computed only for the campaigns a report names.
        let entries = variantEntries(configuration)
        var campaignRanges: [Range<Int>] = []
        var start = 0
        for index in entries.indices.dropFirst() where entries[index].campaign != entries[index - 1].campaign {
            campaignRanges.append(start..<index)
            start = index
        }
        if !entries.isEmpty { campaignRanges.append(start..<entries.count) }
        let fold = CampaignFold(
            campaignRanges.map { range in (entries[range.lowerBound].campaign, entries[range].reduce(0) { $0 + $1.counts.units }) },
            maximum: maxCampaigns)
        var exposure: [ExposureCampaign] = []
        var others = ExposureFoldSums()
        for range in campaignRanges {
            let name = entries[range.lowerBound].campaign
            let symbol = symbols.lookup(name)
            let missingCustomer = symbol.flatMap { counters[$0] }?.missingCustomer ?? 0
            let campaignStats = symbol.flatMap { joins.campaignStats[$0] } ?? CampaignStats()
            var campaign = ExposureCampaign(
                campaign: name, srmPValue: nil, missingCustomer: missingCustomer,
                previewContaminated: campaignStats.contaminated, multiVariantUnits: campaignStats.multiVariantUnits,
                variants: entries[range].map { ExposureRow(campaign: name, variant: $0.variant, counts: $0.counts) })
            if fold.folds(name) {
                others.add(campaign)
                continue
            }
            Lift.fill(&campaign.variants)
            let weights = configuration?.campaigns[name].map { campaign in campaign.variants.map { ($0.id, $0.weight) } }
            let srm = SampleRatioMismatch.pValue(campaign.variants, configuredWeights: weights)
            campaign.srmPValue = srm
            for index in campaign.variants.indices { campaign.variants[index].srmPValue = srm }
            exposure.append(campaign)
        }
        if fold.isFolding { others.insert(into: &exposure, folded: fold.foldedCount) }
        return ExposureResult(
            campaigns: exposure, audit: previewAudit(configuration, maxCampaigns: maxCampaigns), foldedCampaigns: fold.foldedCount)
    }

    /// Every row of `exposure.csv` as (campaign, variant, counts), sorted by campaign then variant:
    /// each (campaign, variant) with units, and each variant the configuration lists.
    private func variantEntries(_ configuration: Configuration?) -> [(campaign: ByteString, variant: ByteString, counts: VariantCounts)] {
        var entries: [(campaign: ByteString, variant: ByteString, counts: VariantCounts)] = []
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) where counts.units > 0 {
            entries.append((symbols.string(key.first), symbols.string(key.second), counts))
        }
        for campaign in configuration?.campaigns.values ?? [:].values {
            for variant in campaign.variants {
                let key = symbols.lookup(campaign.id).flatMap { first in
                    symbols.lookup(variant.id).map { SymbolPair(first: first, second: $0) }
                }
                let counts = key.flatMap { joins.variants[$0] }
                // A variant with units has its row already.
                guard (counts?.units ?? 0) == 0 else { continue }
                entries.append((campaign.id, variant.id, counts ?? VariantCounts()))
            }
        }
        entries.sort { $0.campaign != $1.campaign ? $0.campaign < $1.campaign : $0.variant < $1.variant }
        return entries
    }

    /// The audit: every campaign seen in a Grona event or listed in the configuration, at most
    /// `maxCampaigns` named — those with the most violations, then the most preview events and
    /// pairings, ties by name; the rest summed into `(other campaigns)` (`CampaignFold`).
    private func previewAudit(_ configuration: Configuration?, maxCampaigns: Int) -> PreviewAudit {
        var names = Set(counters.keys.map(symbols.string))
        names.formUnion(configuration?.campaigns.keys ?? [:].keys)
        let sortedNames = names.sorted()
        let fold = CampaignFold(
            sortedNames.map { ($0, AuditFoldWeight(auditCampaign($0, configuration))) }, maximum: maxCampaigns)
        var campaigns: [AuditCampaign] = []
        var others = AuditCampaign(campaign: CampaignFold.name)
        var violations = AuditViolations()
        for name in sortedNames {
            let campaign = auditCampaign(name, configuration)
            violations.add(campaign.violations)
            if fold.folds(name) { others.add(campaign) } else { campaigns.append(campaign) }
        }
        if fold.isFolding {
            others.foldedCampaigns = fold.foldedCount
            campaigns.insert(others, at: campaigns.firstIndex { $0.campaign > CampaignFold.name } ?? campaigns.endIndex)
        }
        // Links that paired no campaign (cleared, rejected, ignored) have no campaign to count under.
        violations.links = totals.linkViolations
        return PreviewAudit(
            campaigns: campaigns, previewTotals: totals.preview, consentDeniedTotals: totals.consentDenied,
            previewLinks: totals.previewLinks, violations: violations, leakCheck: totals.leaked,
            foldedCampaigns: fold.foldedCount)
    }

    /// One campaign's row of the audit.
    private func auditCampaign(_ name: ByteString, _ configuration: Configuration?) -> AuditCampaign {
        let symbol = symbols.lookup(name)
        let counts = symbol.flatMap { counters[$0] } ?? CampaignCounters()
        let campaignStats = symbol.flatMap { joins.campaignStats[$0] } ?? CampaignStats()
        var campaign = AuditCampaign(campaign: name)
        campaign.previewDecisions = counts.previewDecisions
        campaign.previewImpressions = counts.previewImpressions
        campaign.previewGrants = counts.previewGrants
        campaign.previewPairings = counts.previewPairings
        campaign.previewInstalls = campaignStats.previewInstalls
        campaign.previewContaminated = campaignStats.contaminated
        campaign.violations.previewGrant = counts.previewGrants
        campaign.violations.missingCustomer = counts.missingCustomer
        campaign.violations.links = counts.linkViolations
        if configuration?.campaigns[name]?.enabled == false {
            campaign.violations.previewOnDisabledCampaign = counts.previewEvents
            campaign.violations.decisionOnDisabledCampaign = counts.decisions
        }
        return campaign
    }
}

extension ExposureRow {
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
