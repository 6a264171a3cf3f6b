/// The three join stages that turn merged partial states into report rows (SPEC sections 3–5).
///
/// Each stage reads records that a shuffle by key has brought together and writes records keyed
/// for the next one, so the same functions run in one process (`run`, all stages back to back)
/// and on a cluster (`merge --join N` after the N-th shuffle). A stage only moves records of its
/// own inputs; everything else passes through.
extension PartialState {
    /// The campaign name of clicks without `utm_campaign`.
    static let noCampaign = ByteString("(none)")

    /// Stage 1, on records keyed by clickId, openId, (campaign, install) and orderId: resolves
    /// opens and bindings to their click, applies preview-install exclusion (rule 2), and routes
    /// used orders to the units they name.
    public mutating func joinStage1(scope: PreviewScope) {
        let noCampaign = symbols.intern(Self.noCampaign)
        let clicks = attribution.clicks.removeAll()
        for (clickId, click) in zip(clicks.keys, clicks.records) {
            let campaign = click.earliest.utm.campaign ?? noCampaign
            joins.clickJoins.modify(clickId, default: ClickJoin.init) { $0.click = (campaign, click.earliest.route) }
            joins.attributionExtras.duplicateClicks += click.lines - 1
        }
        for open in attribution.opens.removeAll().records {
            guard let clickId = open.original.clickId else {
                joins.attributionExtras.unresolvedOpens += 1
                continue
            }
            joins.clickJoins.modify(clickId, default: ClickJoin.init) { join in
                join.opens += 1
                join.openRetries += open.retries
                join.openConflicts += open.conflicts
            }
        }
        let bindings = attribution.bindings.removeAll()
        for (clickId, binding) in zip(bindings.keys, bindings.records) {
            joins.clickJoins.modify(clickId, default: ClickJoin.init) { join in
                join.bindings += 1
                join.bindRetries += binding.retries
                join.bindConflicts += binding.conflicts
            }
        }
        let installs = grona.installs.removeAll()
        for (key, install) in zip(installs.keys, installs.records) {
            joinInstall(install, campaign: key.first, scope: scope)
        }
        for order in grona.orders.removeAll().records where order.isUsable {
            let earliest = order.earliest
            if earliest.isPreview || earliest.subject.consent == .denied { grona.totals.leaked += 1 }
            let match = UnitConversion.OrderMatch(ts: earliest.ts, amountMinor: earliest.amountMinor)
            var units = [UnitKey(kind: .install, id: earliest.subject.installId)]
            if let customerId = earliest.subject.customerId { units.append(UnitKey(kind: .customer, id: customerId)) }
            for unit in units {
                joins.unitConversions.modify(unit, default: UnitConversion.init) { $0.orders.append(match) }
            }
        }
    }

    /// Rule 2 for one install of one campaign: a preview install's clean events are excluded
    /// (unit scope) and counted; otherwise its decisions go to their units and its impressions to
    /// their variants.
    private mutating func joinInstall(_ install: InstallRecord, campaign: Symbol, scope: PreviewScope) {
        grona.totals.leaked += install.leaked
        if install.isPreviewInstall {
            joins.campaignStats.modify(campaign, default: CampaignStats.init) { stats in
                stats.previewInstalls += 1
                if scope == .unit { stats.contaminated += install.cleanEvents }
            }
            if scope == .unit { return }
        }
        for decision in install.decisions {
            let variant = UnitAssignment.Variant(
                variant: decision.variant, firstExposure: decision.firstExposure, control: decision.control)
            joins.unitAssignments.modify(CampaignUnit(campaign: campaign, unit: decision.unit), default: UnitAssignment.init) {
                $0.add(variant)
            }
        }
        for impression in install.impressions {
            joins.variants.modify(SymbolPair(first: campaign, second: impression.variant), default: VariantCounts.init) {
                $0.impressions += impression.lines
            }
        }
    }

    /// Stage 2, on records keyed by clickId and (campaign, unit): counts each click's campaign
    /// row or its orphans, and applies rule 3, turning single-variant units into units of their
    /// variant and exposures of their unit key.
    public mutating func joinStage2() {
        for join in joins.clickJoins.removeAll().records {
            guard let (campaign, route) = join.click else {
                joins.attributionExtras.orphanOpens += join.opens
                joins.attributionExtras.orphanBinds += join.bindings
                continue
            }
            joins.campaignAttribution.modify(campaign, default: AttributionCounts.init) { counts in
                counts.clicks += 1
                if route == .store { counts.storeClicks += 1 } else { counts.appClicks += 1 }
                counts.opens += join.opens
                counts.openRetries += join.openRetries
                counts.openConflicts += join.openConflicts
                counts.attributed += join.bindings > 0 ? 1 : 0
                counts.bindRetries += join.bindRetries
                counts.bindConflicts += join.bindConflicts
            }
        }
        let assignments = joins.unitAssignments.removeAll()
        for (key, assignment) in zip(assignments.keys, assignments.records) {
            guard assignment.variants.count == 1, let variant = assignment.variants.first else {
                joins.campaignStats.modify(key.campaign, default: CampaignStats.init) { $0.multiVariantUnits += 1 }
                continue
            }
            joins.variants.modify(SymbolPair(first: key.campaign, second: variant.variant), default: VariantCounts.init) {
                $0.units += 1
                $0.control = $0.control || variant.control
            }
            let exposure = UnitConversion.Exposure(
                campaign: key.campaign, variant: variant.variant, firstExposure: variant.firstExposure)
            joins.unitConversions.modify(key.unit, default: UnitConversion.init) { $0.exposures.append(exposure) }
        }
    }

    /// Stage 3, on records keyed by unit: matches each exposure with the unit's used orders at or
    /// after its first exposure.
    public mutating func joinStage3() {
        for conversion in joins.unitConversions.removeAll().records {
            for exposure in conversion.exposures {
                let matches = conversion.orders.filter { $0.ts >= exposure.firstExposure }
                guard !matches.isEmpty else { continue }
                joins.variants.modify(SymbolPair(first: exposure.campaign, second: exposure.variant), default: VariantCounts.init) {
                    $0.convertedUnits += 1
                    $0.orders += matches.count
                    $0.revenueMinor += matches.reduce(Int128(0)) { $0 + Int128($1.amountMinor) }
                }
            }
        }
    }

    /// All three stages back to back, as one process runs them.
    public mutating func joinAll(scope: PreviewScope) {
        joinStage1(scope: scope)
        joinStage2()
        joinStage3()
    }
}
