/// The exposure rows and the preview audit (docs/EXPOSURE.md, docs/AUDIT.md), built from a state past every
/// join stage: units, conversions and exclusion counts are final; this adds the rows the
/// configuration lists, lift against the control, sample-ratio mismatch and the audit.
extension JoinedState {
    /// The exposure rows by campaign (byte-wise) and variant, at most `maxCampaigns` campaigns
    /// named (`CampaignFold`), and the preview audit, folded the same way.
    /// `sequentialTuning` is T of the always-valid interval (`--sequential-tuning`).
    func exposureResult(
        configuration: Configuration?, maxCampaigns: Int = CampaignFold.defaultMaximum,
        sequentialTuning: Int = SequentialInterval.defaultTuning
    ) -> ExposureResult {
        // The campaigns with units, by symbol, then those the configuration lists with variants
        // but none has units, by name: the fold is decided on their total units before any name
        // is made, and lift and SRM are computed only for the campaigns a report names.
        var campaigns = CampaignPositions()
        var units: [Int] = []
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) where counts.units > 0 {
            let position = campaigns.add(key.first)
            if position == units.count { units.append(0) }
            units[position] += counts.units
        }
        for campaign in configuration?.campaigns.values ?? [:].values where !campaign.variants.isEmpty {
            if campaigns.position(of: campaign.id, in: symbols) == nil { campaigns.add(configured: campaign.id) }
        }
        units += repeatElement(0, count: campaigns.count - units.count)
        let fold = CampaignFold(
            count: campaigns.count, maximum: maxCampaigns, weight: { units[$0] },
            precedes: { campaigns.precedes($0, $1, in: symbols) }, isNamedLikeTheFold: { campaigns.isNamedLikeTheFold($0, in: symbols) })

        // The rows: every (campaign, variant) with units, and every variant the configuration lists.
        var rows: [Int: [ExposureRow]] = [:]
        var others = ExposureFoldSums()
        func add(_ position: Int, _ variant: () -> ByteString, _ counts: VariantCounts) {
            if fold.folds(position) {
                others.add(counts)
            } else {
                rows[position, default: []].append(ExposureRow(campaign: ByteString([]), variant: variant(), counts: counts))
            }
        }
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) where counts.units > 0 {
            add(campaigns.position(of: key.first)!, { symbols.string(key.second) }, counts)
        }
        for campaign in configuration?.campaigns.values ?? [:].values {
            guard let position = campaigns.position(of: campaign.id, in: symbols) else { continue }
            for variant in campaign.variants {
                let key = symbols.lookup(campaign.id).flatMap { first in
                    symbols.lookup(variant.id).map { SymbolPair(first: first, second: $0) }
                }
                let counts = key.flatMap { joins.variants[$0] }
                // A variant with units has its row already.
                guard (counts?.units ?? 0) == 0 else { continue }
                add(position, { variant.id }, counts ?? VariantCounts())
            }
        }
        for position in 0..<campaigns.count where fold.folds(position) {
            let symbol = campaigns.symbol(position, in: symbols)
            others.add(
                missingCustomer: symbol.flatMap { counters[$0] }?.missingCustomer ?? 0,
                stats: symbol.flatMap { joins.campaignStats[$0] } ?? CampaignStats())
        }

        var exposure: [ExposureCampaign] = rows.map { position, variants in
            let name = campaigns.name(position, in: symbols)
            let symbol = campaigns.symbol(position, in: symbols)
            let campaignStats = symbol.flatMap { joins.campaignStats[$0] } ?? CampaignStats()
            var campaign = ExposureCampaign(
                campaign: name, srmPValue: nil, missingCustomer: symbol.flatMap { counters[$0] }?.missingCustomer ?? 0,
                previewContaminated: campaignStats.contaminated, multiVariantUnits: campaignStats.multiVariantUnits,
                variants: variants.map { row in
                    var row = row
                    row.campaign = name
                    return row
                }.sorted { $0.variant < $1.variant })
            Lift.fill(&campaign.variants, tuning: sequentialTuning)
            let weights = configuration?.campaigns[name].map { campaign in campaign.variants.map { ($0.id, $0.weight) } }
            let srm = SampleRatioMismatch.pValue(campaign.variants, configuredWeights: weights)
            campaign.srmPValue = srm
            for index in campaign.variants.indices { campaign.variants[index].srmPValue = srm }
            return campaign
        }
        exposure.sort { $0.campaign < $1.campaign }
        if fold.isFolding { others.insert(into: &exposure, folded: fold.foldedCount) }
        var result = ExposureResult(
            campaigns: exposure, audit: previewAudit(configuration, maxCampaigns: maxCampaigns), foldedCampaigns: fold.foldedCount)
        result.sequentialTuning = sequentialTuning
        return result
    }

    /// The audit: every campaign seen in a Grona event or listed in the configuration, at most
    /// `maxCampaigns` named — those with the most violations, then the most preview events and
    /// pairings, ties by name; the rest summed into `(other campaigns)` (`CampaignFold`).
    private func previewAudit(_ configuration: Configuration?, maxCampaigns: Int) -> PreviewAudit {
        var campaigns = CampaignPositions()
        for key in counters.keys { campaigns.add(key) }
        for name in configuration?.campaigns.keys ?? [:].keys where campaigns.position(of: name, in: symbols) == nil {
            campaigns.add(configured: name)
        }
        // Disabled campaigns by position, so that the audit's counts need no name.
        var disabled = [Bool](repeating: false, count: campaigns.count)
        for campaign in configuration?.campaigns.values ?? [:].values where !campaign.enabled {
            if let position = campaigns.position(of: campaign.id, in: symbols) { disabled[position] = true }
        }
        // Rows are made twice, for the weights and then to keep or sum, rather than held for every campaign.
        let audited = { (position: Int) in auditCampaign(campaigns.symbol(position, in: symbols), disabled: disabled[position]) }
        let weights = (0..<campaigns.count).map { AuditFoldWeight(audited($0)) }
        let fold = CampaignFold(
            count: campaigns.count, maximum: maxCampaigns, weight: { weights[$0] },
            precedes: { campaigns.precedes($0, $1, in: symbols) }, isNamedLikeTheFold: { campaigns.isNamedLikeTheFold($0, in: symbols) })
        var named: [AuditCampaign] = []
        var others = AuditCampaign(campaign: CampaignFold.name)
        var violations = AuditViolations()
        for position in 0..<campaigns.count {
            var campaign = audited(position)
            violations.add(campaign.violations)
            if fold.folds(position) {
                others.add(campaign)
            } else {
                campaign.campaign = campaigns.name(position, in: symbols)
                named.append(campaign)
            }
        }
        named.sort { $0.campaign < $1.campaign }
        if fold.isFolding {
            others.foldedCampaigns = fold.foldedCount
            CampaignFold.insert(others, into: &named) { $0.campaign }
        }
        // Links that paired no campaign (cleared, rejected, ignored) have no campaign to count under.
        violations.links = totals.linkViolations
        return PreviewAudit(
            campaigns: named, previewTotals: totals.preview, consentDeniedTotals: totals.consentDenied,
            previewLinks: totals.previewLinks, violations: violations, leakCheck: totals.leaked,
            foldedCampaigns: fold.foldedCount)
    }

    /// One campaign's row of the audit, without its name.
    private func auditCampaign(_ symbol: Symbol?, disabled: Bool) -> AuditCampaign {
        let counts = symbol.flatMap { counters[$0] } ?? CampaignCounters()
        let campaignStats = symbol.flatMap { joins.campaignStats[$0] } ?? CampaignStats()
        var campaign = AuditCampaign(campaign: ByteString([]))
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
        if disabled {
            campaign.violations.previewOnDisabledCampaign = counts.previewEvents
            campaign.violations.decisionOnDisabledCampaign = counts.decisions
        }
        return campaign
    }
}

/// The campaigns of an analysis by position, for `CampaignFold`: those of the logs by symbol,
/// then those only the configuration names, by name. Names are made only when asked for.
private struct CampaignPositions {
    private var symbolPositions: [Symbol: Int] = [:]
    private var logged: [Symbol] = []
    private var configured: [ByteString] = []
    private var configuredPositions: [ByteString: Int] = [:]

    var count: Int { logged.count + configured.count }

    /// The position of a campaign of the logs, added when new.
    @discardableResult
    mutating func add(_ symbol: Symbol) -> Int {
        if let position = symbolPositions[symbol] { return position }
        precondition(configured.isEmpty, "campaigns of the logs come first")
        symbolPositions[symbol] = logged.count
        logged.append(symbol)
        return logged.count - 1
    }

    /// Adds a campaign the logs do not have, by name.
    mutating func add(configured name: ByteString) {
        configuredPositions[name] = count
        configured.append(name)
    }

    func position(of symbol: Symbol) -> Int? {
        symbolPositions[symbol]
    }

    func position(of name: ByteString, in symbols: SymbolTable) -> Int? {
        symbols.lookup(name).flatMap { symbolPositions[$0] } ?? configuredPositions[name]
    }

    /// The campaign's symbol, when the logs have its name at all.
    func symbol(_ position: Int, in symbols: SymbolTable) -> Symbol? {
        position < logged.count ? logged[position] : symbols.lookup(configured[position - logged.count])
    }

    func name(_ position: Int, in symbols: SymbolTable) -> ByteString {
        position < logged.count ? symbols.string(logged[position]) : configured[position - logged.count]
    }

    /// Byte-wise order of two campaigns' names, made of neither.
    func precedes(_ lhs: Int, _ rhs: Int, in symbols: SymbolTable) -> Bool {
        switch (lhs < logged.count, rhs < logged.count) {
        case (true, true): symbols.precedes(logged[lhs], logged[rhs])
        case (true, false): symbols.bytes(logged[lhs]).lexicographicallyPrecedes(configured[rhs - logged.count].bytes)
        case (false, true): configured[lhs - logged.count].bytes.lexicographicallyPrecedes(symbols.bytes(logged[rhs]))
        case (false, false): configured[lhs - logged.count] < configured[rhs - logged.count]
        }
    }

    func isNamedLikeTheFold(_ position: Int, in symbols: SymbolTable) -> Bool {
        position < logged.count
            ? symbols.bytes(logged[position]).elementsEqual(CampaignFold.name.bytes)
            : configured[position - logged.count] == CampaignFold.name
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
        revenueSquares = counts.revenueSquares
        days = counts.days
        impressions = counts.impressions
    }
}

/// Control-versus-variant statistics of docs/EXPOSURE.md, Control and lift.
enum Lift {
    /// z for a two-sided 95% interval.
    static let criticalValue95 = 1.959963984540054

    /// With exactly one control variant, fills every other variant's lift fields: the
    /// conversion difference with its fixed and always-valid (`tuning`: T) intervals, and the
    /// revenue difference with its interval.
    static func fill(_ variants: inout [ExposureRow], tuning: Int = SequentialInterval.defaultTuning) {
        let controls = variants.indices.filter { variants[$0].control }
        guard controls.count == 1, let control = controls.first,
              let controlRate = variants[control].conversionRate
        else { return }
        let controlUnits = Double(variants[control].units)
        let controlRow = variants[control]
        let controlVariance = RevenueInterval.variance(
            units: controlRow.units, revenue: controlRow.revenueMinor, squares: controlRow.revenueSquares)
        for index in variants.indices where index != control {
            guard let rate = variants[index].conversionRate else { continue }
            fillRevenue(&variants[index], control: controlRow, controlVariance: controlVariance)
            let units = Double(variants[index].units)
            let difference = rate - controlRate
            variants[index].absDiff = difference
            variants[index].relLift = controlRate == 0 ? nil : difference / controlRate
            let standardError = (rate * (1 - rate) / units + controlRate * (1 - controlRate) / controlUnits).squareRoot()
            guard standardError > 0 else { continue }
            variants[index].ciLow = difference - criticalValue95 * standardError
            variants[index].ciHigh = difference + criticalValue95 * standardError
            variants[index].pValue = NormalDistribution.twoSidedPValue(z: difference / standardError)
            let sequential = SequentialInterval.interval(
                difference: difference, standardError: standardError, units: variants[index].units + controlRow.units,
                tuning: tuning)
            (variants[index].seqCiLow, variants[index].seqCiHigh, variants[index].seqPValue) =
                (sequential.low, sequential.high, sequential.pValue)
        }
    }
}

extension Lift {
    /// The revenue difference of a variant with units against the control (which has units).
    private static func fillRevenue(_ row: inout ExposureRow, control: ExposureRow, controlVariance: Double?) {
        guard let perUnit = row.revenuePerUnit, let controlPerUnit = control.revenuePerUnit else { return }
        let difference = perUnit - controlPerUnit
        row.revenueAbsDiff = difference
        let variance = RevenueInterval.variance(units: row.units, revenue: row.revenueMinor, squares: row.revenueSquares)
        guard let interval = RevenueInterval.interval(
            difference: difference, variant: (row.units, variance), control: (control.units, controlVariance))
        else { return }
        (row.revenueCiLow, row.revenueCiHigh, row.revenuePValue) = (interval.low, interval.high, interval.pValue)
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
