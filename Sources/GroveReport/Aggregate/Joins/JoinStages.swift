/// The three join stages that turn merged partial states into report rows (docs/ATTRIBUTION.md, EXPOSURE.md, AUDIT.md).
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
    /// used orders to the units they name. Attribution and exposure touch disjoint stores, so
    /// their halves run on two threads.
    mutating func joinStage1(scope: PreviewScope) {
        let noCampaign = symbols.intern(Self.noCampaign)
        var attribution = take(&self.attribution, AttributionState())
        var grona = take(&self.grona, GronaState())
        var attributionJoins = takeAttributionJoins()
        var exposureJoins = takeExposureJoins()
        let symbols = self.symbols
        Parallel.both {
            attributionJoins.join(&attribution, noCampaign: noCampaign, symbols: symbols)
        } and: {
            exposureJoins.join(&grona, scope: scope)
        }
        self.attribution = attribution
        self.grona = grona
        restore(attributionJoins, exposureJoins)
    }

    /// Stage 2, on records keyed by clickId and (campaign, unit): counts each click's campaign
    /// row or its orphans, and applies rule 3, turning single-variant units into units of their
    /// variant and exposures of their unit key.
    mutating func joinStage2() {
        var attributionJoins = takeAttributionJoins()
        var exposureJoins = takeExposureJoins()
        Parallel.both {
            attributionJoins.countCampaigns()
        } and: {
            exposureJoins.assignUnits()
        }
        restore(attributionJoins, exposureJoins)
    }

    /// Stage 3, on records keyed by unit: matches each exposure with the unit's used orders at or
    /// after its first exposure.
    mutating func joinStage3() {
        for conversion in joins.unitConversions.removeAll().records where !conversion.exposures.isEmpty {
            let matcher = OrderMatcher(conversion.orders)
            for exposure in conversion.exposures {
                let (orders, revenue) = matcher.orders(atOrAfter: exposure.firstExposure)
                guard orders > 0 else { continue }
                joins.variants.modify(SymbolPair(first: exposure.campaign, second: exposure.variant), default: VariantCounts.init) {
                    $0.convertedUnits += 1
                    $0.orders += orders
                    $0.revenueMinor += revenue
                }
            }
        }
    }

    /// Moves attribution's join stores out, to be worked on apart from exposure's.
    private mutating func takeAttributionJoins() -> AttributionJoins {
        AttributionJoins(
            clickJoins: take(&joins.clickJoins, .init()), campaignAttribution: take(&joins.campaignAttribution, .init()),
            extras: joins.attributionExtras)
    }

    /// Moves exposure's join stores out, to be worked on apart from attribution's.
    private mutating func takeExposureJoins() -> ExposureJoins {
        ExposureJoins(
            unitAssignments: take(&joins.unitAssignments, .init()), unitConversions: take(&joins.unitConversions, .init()),
            variants: take(&joins.variants, .init()), campaignStats: take(&joins.campaignStats, .init()))
    }

    private mutating func restore(_ attributionJoins: AttributionJoins, _ exposureJoins: ExposureJoins) {
        joins.clickJoins = attributionJoins.clickJoins
        joins.campaignAttribution = attributionJoins.campaignAttribution
        joins.attributionExtras = attributionJoins.extras
        joins.unitAssignments = exposureJoins.unitAssignments
        joins.unitConversions = exposureJoins.unitConversions
        joins.variants = exposureJoins.variants
        joins.campaignStats = exposureJoins.campaignStats
    }

    /// All three stages back to back, as one process runs them.
    mutating func joinAll(scope: PreviewScope) {
        joinStage1(scope: scope)
        joinStage2()
        joinStage3()
    }
}

/// The stores attribution's halves of join stages 1 and 2 work on.
private struct AttributionJoins {
    var clickJoins: SymbolKeyedRecords<ClickJoin>
    var campaignAttribution: SymbolKeyedRecords<AttributionCounts>
    var extras: AttributionExtras

    /// Stage 2: counts each click's campaign row, or its orphans.
    mutating func countCampaigns() {
        for join in clickJoins.removeAll().records {
            guard let (campaign, route) = join.click else {
                extras.orphanOpens += join.opens
                extras.orphanBinds += join.bindings
                continue
            }
            campaignAttribution.modify(campaign, default: AttributionCounts.init) { counts in
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
    }

    /// Resolves every click, open and binding to its clickId.
    mutating func join(_ attribution: inout AttributionState, noCampaign: Symbol, symbols: SymbolTable) {
        // Every click becomes the join record of its own key: the clicks' index serves as is.
        let clicks = take(&attribution.clicks, .init())
        extras.duplicateClicks += clicks.records.reduce(0) { $0 + ($1.lines > 1 ? 1 : 0) }
        var joined = clicks.mapRecords { click in
            var join = ClickJoin()
            join.click = (click.earliest.utm.campaign ?? noCampaign, click.earliest.route)
            return join
        }
        joined.merge(clickJoins, symbols: symbols)
        clickJoins = joined
        for open in attribution.opens.removeAll().records {
            guard let clickId = open.original.clickId else {
                extras.unresolvedOpens += 1
                continue
            }
            clickJoins.modify(clickId, default: ClickJoin.init) { join in
                join.opens += 1
                join.openRetries += open.retries
                join.openConflicts += open.conflicts
            }
        }
        let bindings = attribution.bindings.removeAll()
        for (clickId, binding) in zip(bindings.keys, bindings.records) {
            clickJoins.modify(clickId, default: ClickJoin.init) { join in
                join.bindings += 1
                join.bindRetries += binding.retries
                join.bindConflicts += binding.conflicts
            }
        }
    }
}

/// The stores exposure's halves of join stages 1 and 2 work on.
private struct ExposureJoins {
    var unitAssignments: KeyedRecords<HashedIndex<CampaignUnit>, UnitAssignment>
    var unitConversions: KeyedRecords<HashedIndex<UnitKey>, UnitConversion>
    var variants: PairKeyedRecords<VariantCounts>
    var campaignStats: SymbolKeyedRecords<CampaignStats>

    /// Stage 2: rule 3, then units of their variant and exposures of their unit key.
    mutating func assignUnits() {
        let assignments = unitAssignments.removeAll()
        for (key, assignment) in zip(assignments.keys, assignments.records) {
            guard assignment.variants.count == 1, let variant = assignment.variants.first else {
                campaignStats.modify(key.campaign, default: CampaignStats.init) { $0.multiVariantUnits += 1 }
                continue
            }
            variants.modify(SymbolPair(first: key.campaign, second: variant.variant), default: VariantCounts.init) {
                $0.units += 1
                $0.controlUnits += variant.control ? 1 : 0
            }
            let exposure = UnitConversion.Exposure(
                campaign: key.campaign, variant: variant.variant, firstExposure: variant.firstExposure)
            unitConversions.modify(key.unit, default: UnitConversion.init) { $0.exposures.append(exposure) }
        }
    }

    /// Applies rule 2 to every install and routes every used order to its units.
    mutating func join(_ grona: inout GronaState, scope: PreviewScope) {
        let installs = grona.installs.removeAll()
        for (key, install) in zip(installs.keys, installs.records) {
            grona.totals.leaked += install.leaked
            joinInstall(install, campaign: key.first, scope: scope)
        }
        for order in grona.orders.removeAll().records where order.isUsable {
            let earliest = order.earliest
            if earliest.isPreview || earliest.subject.consent == .denied { grona.totals.leaked += 1 }
            let match = UnitConversion.OrderMatch(ts: earliest.ts, amountMinor: earliest.amountMinor)
            var units = [UnitKey(kind: .install, id: earliest.subject.installId)]
            if let customerId = earliest.subject.customerId { units.append(UnitKey(kind: .customer, id: customerId)) }
            for unit in units {
                unitConversions.modify(unit, default: UnitConversion.init) { $0.orders.append(match) }
            }
        }
    }

    /// Rule 2 for one install of one campaign: a preview install's clean events are excluded
    /// (unit scope) and counted; otherwise its decisions go to their units and its impressions to
    /// their variants.
    private mutating func joinInstall(_ install: InstallRecord, campaign: Symbol, scope: PreviewScope) {
        if install.isPreviewInstall {
            campaignStats.modify(campaign, default: CampaignStats.init) { stats in
                stats.previewInstalls += 1
                if scope == .unit { stats.contaminated += install.cleanEvents }
            }
            if scope == .unit { return }
        }
        for decision in install.decisions.values {
            unitAssignments.modify(CampaignUnit(campaign: campaign, unit: decision.unit), default: UnitAssignment.init) {
                $0.add(decision.exposure)
            }
        }
        for impression in install.impressions.entries {
            variants.modify(SymbolPair(first: campaign, second: impression.key), default: VariantCounts.init) {
                $0.impressions += impression.value
            }
        }
    }

}

/// A unit's used orders sorted by time with suffix sums of their amounts, so that each exposure's
/// matches are one binary search however many orders and exposures a unit has.
private struct OrderMatcher {
    private let times: [Instant]
    /// `revenueFrom[i]` is the sum of the amounts of orders `i...`.
    private let revenueFrom: [Int128]

    init(_ orders: [UnitConversion.OrderMatch]) {
        let sorted = orders.sorted { $0.ts < $1.ts }
        times = sorted.map(\.ts)
        var sums = [Int128](repeating: 0, count: sorted.count + 1)
        for index in sorted.indices.reversed() { sums[index] = sums[index + 1] + Int128(sorted[index].amountMinor) }
        revenueFrom = sums
    }

    /// The number and summed amount of the orders with `ts` at or after `instant`.
    func orders(atOrAfter instant: Instant) -> (count: Int, revenue: Int128) {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < instant { low = middle + 1 } else { high = middle }
        }
        return (times.count - low, revenueFrom[low])
    }
}
