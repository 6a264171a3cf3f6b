import Foundation

/// The three join stages that turn merged partial states into report rows (docs/ATTRIBUTION.md, EXPOSURE.md, AUDIT.md).
///
/// Each stage reads records that a shuffle by key has brought together and writes records keyed
/// for the next one, so the same functions run in one process (`run`: all stages back to back,
/// on partitions by key hash) and on a cluster (`merge --join N` after the N-th shuffle). A stage
/// only moves records of its own inputs; everything else passes through.
extension PartialState {
    /// Stage 1 alone (`merge --join 1`), on records keyed by clickId, openId, (campaign, install)
    /// and orderId. The stage commands run on one partition, which keeps the records' order, so
    /// they write the very records they always wrote.
    mutating func joinStage1(scope: PreviewScope) {
        alone { $0.joinStage1(scope: scope) }
    }

    /// Stage 2 alone (`merge --join 2`), on records keyed by clickId and (campaign, unit).
    mutating func joinStage2(windows: AnalysisWindows = .init()) {
        alone { $0.joinStage2(windows: windows) }
    }

    /// Stage 3 alone (`merge --join 3`), on records keyed by unit.
    mutating func joinStage3(windows: AnalysisWindows = .init()) {
        alone { $0.joinStage3(windows: windows) }
    }

    private mutating func alone(_ stage: (inout PartitionedState) -> Void) {
        var state = PartitionedState(merging: [take(&self, PartialState())], partitions: 1, threads: 1)
        stage(&state)
        self = (consume state).flattened()
    }

    /// All three stages, on `partitions` partitions by key hash and `threads` threads (by default
    /// every processor): the state that the results are built from.
    consuming func joined(
        scope: PreviewScope, windows: AnalysisWindows = .init(), partitions: Int = 16,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> JoinedState {
        PartitionedState(merging: [consume self], partitions: partitions, threads: threads).joined(scope: scope, windows: windows)
    }
}

/// The stages on one partition: every record of a key the stage reads is in it.
extension JoinPartition {
    /// The campaign name of clicks without `utm_campaign`.
    static let noCampaign = ByteString("(none)")

    /// Resolves opens and bindings to their click, applies preview-install exclusion (rule 2),
    /// and routes used orders to the units they name. This is partition `number` of `count`:
    /// records for stage 2 whose keys hash elsewhere go to `outgoing`.
    mutating func joinStage1(scope: PreviewScope, noCampaign: Symbol, symbols: SymbolTable, number: Int, of count: Int) {
        home = number
        outgoing = count > 1 ? [JoinState](repeating: JoinState(), count: count) : []
        joinClicks(noCampaign: noCampaign, symbols: symbols)
        take(&installs, .init()).forEachConsumed { _, key, install in
            leaked += install.leaked
            joinInstall(install, campaign: key.first, scope: scope)
        }
        joinOrders()
    }

    /// The join state that records of `key` belong in: this partition's, or the outgoing one of
    /// the partition `key` hashes to.
    private mutating func stage2Input(for key: some PartitionKey, _ update: (inout JoinState) -> Void) {
        let target = outgoing.isEmpty ? home : key.partition(of: outgoing.count)
        if target == home { update(&joins) } else { update(&outgoing[target]) }
    }

    /// Counts each click's campaign row or its orphans (a binding attributes its click only
    /// inside the bind window), and applies rule 3, turning single-variant units into units of
    /// their variant and exposures of their unit key.
    mutating func joinStage2(windows: AnalysisWindows = .init()) {
        countCampaigns(windows: windows)
        assignUnits()
    }

    /// Matches each exposure with the unit's used orders at or after its first exposure (and,
    /// with a conversion window, at most its hours after).
    mutating func joinStage3(windows: AnalysisWindows = .init()) {
        // A unit without orders converts nowhere: skipping it saves building its matcher.
        take(&joins.unitConversions, .init()).forEachConsumed { _, _, conversion in
            guard !conversion.exposures.isEmpty, !conversion.orders.isEmpty else { return }
            let matcher = OrderMatcher(conversion.orders)
            for exposure in conversion.exposures {
                let (orders, revenue, firstOrder) = matcher.orders(
                    from: exposure.firstExposure, through: windows.conversionEnd(after: exposure.firstExposure))
                guard orders > 0, let firstOrder else { continue }
                joins.variants.modify(SymbolPair(first: exposure.campaign, second: exposure.variant), default: VariantCounts.init) {
                    $0.convertedUnits += 1
                    $0.orders += orders
                    $0.revenueMinor += revenue
                    $0.revenueSquares += SquareSum(squareOf: revenue)
                    $0.days.add(day: firstOrder.day, SIMD3(0, 1, 0))
                }
            }
        }
    }

    /// Stage 1 of attribution: resolves every click, open and binding to its clickId.
    private mutating func joinClicks(noCampaign: Symbol, symbols: SymbolTable) {
        // Every click becomes the join record of its own key: the clicks' index serves as is.
        let clicks = take(&attribution.clicks, .init())
        joins.attributionExtras.duplicateClicks += clicks.records.reduce(0) { $0 + ($1.lines > 1 ? 1 : 0) }
        // Consumed, not copied: a copy would keep every click alive beside its join record
        // through the opens and bindings below (the peak of the run).
        var joined = (consume clicks).mapRecords { click in
            var join = ClickJoin()
            join.click = (click.earliest.utm.campaign ?? noCampaign, click.earliest.route)
            join.clickTs = click.earliest.ts
            return join
        }
        joined.merge(take(&joins.clickJoins, .init()), symbols: symbols)
        joins.clickJoins = joined
        take(&attribution.opens, .init()).forEachConsumed { _, _, open in
            guard let clickId = open.original.clickId else {
                joins.attributionExtras.unresolvedOpens += 1
                return
            }
            stage2Input(for: clickId) {
                $0.clickJoins.modify(clickId, default: ClickJoin.init) { join in
                    join.opens += 1
                    join.openRetries += open.retries
                    join.openConflicts += open.conflicts
                }
            }
        }
        take(&attribution.bindings, .init()).forEachConsumed { _, clickId, binding in
            stage2Input(for: clickId) {
                $0.clickJoins.modify(clickId, default: ClickJoin.init) { join in
                    join.bindings += 1
                    join.bindTs = binding.winner.ts
                    join.bindRetries += binding.retries
                    join.bindConflicts += binding.conflicts
                }
            }
        }
    }

    /// Stage 1 of exposure for one install of one campaign, rule 2: a preview install's clean
    /// events are excluded (unit scope) and counted; otherwise its decisions go to their units and
    /// its impressions to their variants.
    private mutating func joinInstall(_ install: InstallRecord, campaign: Symbol, scope: PreviewScope) {
        if install.isPreviewInstall {
            joins.campaignStats.modify(campaign, default: CampaignStats.init) { stats in
                stats.previewInstalls += 1
                if scope == .unit { stats.contaminated += install.cleanEvents }
            }
            if scope == .unit { return }
        }
        for decision in install.decisions.values {
            let key = CampaignUnit(campaign: campaign, unit: decision.unit)
            stage2Input(for: key) { $0.unitAssignments.modify(key, default: UnitAssignment.init) { $0.add(decision.exposure) } }
        }
        for impression in install.impressions.entries {
            joins.variants.modify(SymbolPair(first: campaign, second: impression.key), default: VariantCounts.init) {
                $0.impressions += impression.value
            }
        }
    }

    /// Stage 1 of exposure for orders: routes every used order to its units.
    private mutating func joinOrders() {
        take(&orders, .init()).forEachConsumed { _, _, order in
            guard order.isUsable else { return }
            let earliest = order.earliest
            if earliest.isPreview || earliest.subject.consent == .denied { leaked += 1 }
            let match = UnitConversion.OrderMatch(ts: earliest.ts, amountMinor: earliest.amountMinor)
            var units = [UnitKey(kind: .install, id: earliest.subject.installId)]
            if let customerId = earliest.subject.customerId { units.append(UnitKey(kind: .customer, id: customerId)) }
            for unit in units {
                stage2Input(for: unit) { $0.unitConversions.modify(unit, default: UnitConversion.init) { $0.orders.append(match) } }
            }
        }
    }

    /// Stage 2 of attribution: counts each click's campaign row, or its orphans.
    private mutating func countCampaigns(windows: AnalysisWindows) {
        take(&joins.clickJoins, .init()).forEachConsumed { _, _, join in
            guard let (campaign, route) = join.click else {
                joins.attributionExtras.orphanOpens += join.opens
                joins.attributionExtras.orphanBinds += join.bindings
                return
            }
            var attributed = join.bindings > 0
            if attributed, let clickTs = join.clickTs, let bindTs = join.bindTs, !windows.attributes(click: clickTs, bind: bindTs) {
                attributed = false
                joins.attributionExtras.bindsOutsideWindow += 1
            }
            joins.campaignAttribution.modify(campaign, default: AttributionCounts.init) { counts in
                counts.clicks += 1
                if route == .store { counts.storeClicks += 1 } else { counts.appClicks += 1 }
                counts.opens += join.opens
                counts.openRetries += join.openRetries
                counts.openConflicts += join.openConflicts
                counts.attributed += attributed ? 1 : 0
                counts.bindRetries += join.bindRetries
                counts.bindConflicts += join.bindConflicts
                if let clickTs = join.clickTs { counts.days.add(day: clickTs.day, SIMD3(1, join.opens, attributed ? 1 : 0)) }
            }
        }
    }

    /// Stage 2 of exposure: rule 3, then units of their variant and exposures of their unit key.
    private mutating func assignUnits() {
        take(&joins.unitAssignments, .init()).forEachConsumed { _, key, assignment in
            guard assignment.variants.count == 1, let variant = assignment.variants.first else {
                joins.campaignStats.modify(key.campaign, default: CampaignStats.init) { $0.multiVariantUnits += 1 }
                return
            }
            joins.variants.modify(SymbolPair(first: key.campaign, second: variant.variant), default: VariantCounts.init) {
                $0.units += 1
                $0.controlUnits += variant.control ? 1 : 0
                $0.days.add(day: variant.firstExposure.day, SIMD3(1, 0, 0))
            }
            let exposure = UnitConversion.Exposure(
                campaign: key.campaign, variant: variant.variant, firstExposure: variant.firstExposure)
            joins.unitConversions.modify(key.unit, default: UnitConversion.init) { $0.exposures.append(exposure) }
        }
    }
}

/// A unit's used orders sorted by time with suffix sums of their amounts, so that each exposure's
/// matches are one binary search however many orders and exposures a unit has.
private struct OrderMatcher {
    private let times: [Instant]
    /// `revenueFrom[i]` is the sum of the amounts of orders `i...`.
    private let revenueFrom: [Int128]

    init(_ orders: SmallArray<UnitConversion.OrderMatch>) {
        let sorted = orders.sorted { $0.ts < $1.ts }
        times = sorted.map(\.ts)
        var sums = [Int128](repeating: 0, count: sorted.count + 1)
        for index in sorted.indices.reversed() { sums[index] = sums[index + 1] + Int128(sorted[index].amountMinor) }
        revenueFrom = sums
    }

    /// The number and summed amount of the orders with `ts` at or after `start` and, when
    /// `end` is given, at or before it.
    /// Also the time of the first of them.
    func orders(from start: Instant, through end: Instant?) -> (count: Int, revenue: Int128, first: Instant?) {
        let low = firstIndex { $0 >= start }
        let high = end.map { end in firstIndex { $0 > end } } ?? times.count
        guard high > low else { return (0, 0, nil) }
        return (high - low, revenueFrom[low] - revenueFrom[high], times[low])
    }

    /// The first index whose time satisfies `isPast` (a predicate false then true along the times).
    private func firstIndex(where isPast: (Instant) -> Bool) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if isPast(times[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
