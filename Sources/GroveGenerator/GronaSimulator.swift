import GroveReport

/// Simulates the Grona SDK across many installs: decisions, impressions, grants and orders, with
/// customer-unit campaigns, preview testers who also produce ordinary events (contamination),
/// units that see two variants, the three consent states, duplicate order lines, orders both
/// before and after a unit's first exposure, and the preview links testers open.
struct GronaSimulator {
    private enum Action: CaseIterable {
        case decision, impression, grant, order, duplicateOrder, previewLink
    }
    private static let actionChoice = WeightedChoice([300, 450, 60, 20, 1, 16])
    /// The same without duplicate orders (`distinctIDs`).
    private static let distinctActionChoice = WeightedChoice([300, 450, 60, 21, 0, 16])

    private struct RecentDecision {
        var install: UInt64
        var campaign: Int
        var variant: Int
        var preview: Bool
    }

    private struct RecentOrder {
        var number: UInt64
        var install: UInt64
    }

    private let seed: UInt64
    /// The chance that a decision comes from an install never seen before.
    private let newInstallShare: Double
    /// Every decision and order comes from a new install, and every order line is a new order.
    private let distinctIDs: Bool
    private var installCount: UInt64 = 0
    private var orderCount: UInt64 = 0
    private var installs: EntityMemory<UInt64>
    private var decisions: EntityMemory<RecentDecision>
    private var orders = EntityMemory<RecentOrder>(capacity: 2048)
    /// Testers who start previewing late (only with `--days`).
    private var previewStarts: PreviewStartSchedule?

    /// `newInstallShare` sets how often a line comes from a new install (the log shape's
    /// cardinality); `journeys` (with `--days`) brings installs back over days, lets orders follow
    /// exposures of days before, and has testers start previewing after they were bucketed.
    init(seed: UInt64, newInstallShare: Double = 0.22, journeys: MultiDayJourneys? = nil, distinctIDs: Bool = false) {
        self.seed = seed
        self.newInstallShare = newInstallShare
        self.distinctIDs = distinctIDs
        let multiDay = journeys != nil
        installs = EntityMemory(capacity: 4096, reaches: multiDay
            ? [MultiDayJourneys.returningInstall, MultiDayJourneys.orderingInstall] : [])
        decisions = EntityMemory(capacity: 4096, reaches: multiDay
            ? [MultiDayJourneys.order, MultiDayJourneys.exposureFollowUp] : [])
        previewStarts = multiDay ? PreviewStartSchedule(seed: seed) : nil
    }

    /// Writes one Grona event (without its line ending).
    mutating func emit(at instant: EpochNanoseconds, style: TimestampStyle,
                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        let choice = distinctIDs ? Self.distinctActionChoice : Self.actionChoice
        switch Action.allCases[choice.pick(using: &rng)] {
        case .decision:
            emitDecision(at: instant, style: style, into: &line, using: &rng)
        case .impression:
            emitExposureFollowUp(grant: false, at: instant, style: style, into: &line, using: &rng)
        case .grant:
            emitExposureFollowUp(grant: true, at: instant, style: style, into: &line, using: &rng)
        case .order:
            emitNewOrder(at: instant, style: style, into: &line, using: &rng)
        case .duplicateOrder:
            emitDuplicateOrder(at: instant, style: style, into: &line, using: &rng)
        case .previewLink:
            emitPreviewLink(at: instant, style: style, into: &line, using: &rng)
        }
    }

    /// A new install (which is remembered) or a recently active one (within `reach` of its first
    /// line, with `--days`). The first fifty choices are all new, so the opening lines are not
    /// all about one install.
    private mutating func chooseInstall(newShare: Double, at instant: EpochNanoseconds, reach: MemoryReach,
                                        using rng: inout SeededRandom) -> UInt64 {
        if installs.count >= 50, !rng.chance(newShare),
           let install = installs.randomElement(referencedAt: instant, reach: reach, using: &rng) {
            return install
        }
        installCount += 1
        installs.add(installCount, at: instant, using: &rng)
        previewStarts?.register(installCount, firstSeenAt: instant)
        return installCount
    }

    /// Whether the install previews now: a tester who has started previewing.
    private mutating func isPreviewing(_ install: InstallProfile, number: UInt64, at instant: EpochNanoseconds) -> Bool {
        install.tester && previewStarts?.isWaiting(number, at: instant) != true
    }

    // MARK: Decisions

    private mutating func emitDecision(at instant: EpochNanoseconds, style: TimestampStyle,
                                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        let installNumber = chooseInstall(newShare: newInstallShare, at: instant, reach: MultiDayJourneys.returningInstall,
                                          using: &rng)
        let install = InstallProfile(number: installNumber, seed: seed)
        var record = RecentDecision(install: installNumber, campaign: 0, variant: 0, preview: false)
        var missingCustomer = false
        if isPreviewing(install, number: installNumber, at: instant) && rng.chance(0.6) {
            record.campaign = install.pinnedCampaign
            record.variant = install.pinnedVariant
            record.preview = true
        } else {
            // Testers use the app normally too, mostly in the campaign they preview.
            record.campaign = install.tester && rng.chance(0.5)
                ? install.pinnedCampaign : GronaCatalog.campaignChoice.pick(using: &rng)
            if GronaCatalog.campaigns[record.campaign].customerUnit && install.customer == nil {
                // Grona shows customer campaigns to identified shoppers; a few slip through.
                if rng.chance(0.9) {
                    record.campaign = GronaCatalog.anonymousFallbackCampaign
                } else {
                    missingCustomer = true
                }
            }
            let campaign = GronaCatalog.campaigns[record.campaign]
            record.variant = install.assignedVariant(campaign: record.campaign, byCustomer: campaign.customerUnit,
                                                     installNumber: installNumber, seed: seed)
            if rng.chance(0.007) {
                // Re-bucketed (e.g. after a split change): the unit now sees two variants.
                record.variant = (record.variant + 1 + rng.below(campaign.variants.count - 1)) % campaign.variants.count
            }
        }
        decisions.add(record, at: instant, using: &rng)

        let campaign = GronaCatalog.campaigns[record.campaign]
        let includeCustomer = campaign.customerUnit ? !missingCustomer : rng.chance(0.6)
        writeCommonFields(type: #""decision""#, install: install, includeCustomer: includeCustomer,
                          at: instant, style: style, into: &line, using: &rng)
        line.field("campaignId", campaign.id)
        line.field("variantId", campaign.variants[record.variant])
        if record.preview {
            if rng.chance(0.85) {
                line.field("isPreview", bool: true)
                if rng.chance(0.3) {
                    line.field("preview", bool: true)
                }
            } else {
                line.field("isPreview", bool: false)
                line.field("preview", bool: true)
            }
        } else {
            line.field("isPreview", bool: false)
            if rng.chance(0.1) {
                line.field("preview", bool: false)
            }
        }
        if record.variant == campaign.control {
            line.field("control", bool: true)
        } else if rng.chance(0.1) {
            line.field("control", bool: false)
        }
        if campaign.customerUnit {
            line.field("unit", literal: #""customer""#)
        } else if rng.chance(0.5) {
            line.field("unit", literal: #""install""#)
        }
        writeClosingFields(into: &line, using: &rng)
    }

    // MARK: Impressions and grants

    /// An impression or grant follows a recent decision of the same install, campaign and variant.
    private mutating func emitExposureFollowUp(grant: Bool, at instant: EpochNanoseconds, style: TimestampStyle,
                                               into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let decision = decisions.randomElement(referencedAt: instant, reach: MultiDayJourneys.exposureFollowUp,
                                                     using: &rng) else {
            return emitDecision(at: instant, style: style, into: &line, using: &rng)
        }
        let install = InstallProfile(number: decision.install, seed: seed)
        let campaign = GronaCatalog.campaigns[decision.campaign]
        // A pinned variant never produces a grant — except through the bug the audit looks for.
        let preview = decision.preview && (!grant || rng.chance(0.15))
        writeCommonFields(type: grant ? #""grant""# : #""impression""#, install: install,
                          includeCustomer: rng.chance(0.5), at: instant, style: style, into: &line, using: &rng)
        line.field("campaignId", campaign.id)
        line.field("variantId", campaign.variants[decision.variant])
        if grant {
            line.field("offerId", campaign.offer)
        }
        if preview {
            if rng.chance(0.85) {
                line.field("preview", bool: true)
                if rng.chance(0.4) {
                    line.field("isPreview", bool: true)
                }
            } else {
                line.field("preview", bool: false)
                line.field("isPreview", bool: true)
            }
        } else {
            line.field("preview", bool: false)
            if rng.chance(0.15) {
                line.field("isPreview", bool: false)
            }
        }
        writeClosingFields(into: &line, using: &rng)
    }

    // MARK: Orders

    /// Most orders come from recently exposed installs, more often in the better variants; the
    /// rest from other installs, some brand new ones whose first exposure comes only later.
    private mutating func emitNewOrder(at instant: EpochNanoseconds, style: TimestampStyle,
                                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        orderCount += 1
        var installNumber: UInt64?
        if !distinctIDs, rng.chance(0.6),
           let decision = decisions.randomElement(referencedAt: instant, reach: MultiDayJourneys.order, using: &rng),
           rng.below(GronaCatalog.conversionScale) < GronaCatalog.campaigns[decision.campaign].conversion[decision.variant] {
            installNumber = decision.install
        }
        let record = RecentOrder(number: orderCount,
                                 install: installNumber ?? chooseInstall(newShare: distinctIDs ? 1 : 0.25, at: instant,
                                                                         reach: MultiDayJourneys.orderingInstall,
                                                                         using: &rng))
        orders.add(record, at: instant, using: &rng)
        let previewing = isPreviewing(InstallProfile(number: record.install, seed: seed), number: record.install, at: instant)
        writeOrder(record, previewing: previewing, amountBump: 0, at: instant, style: style, into: &line, using: &rng)
    }

    /// The shop's webhook delivers some orders twice, now and then with a corrected amount.
    private mutating func emitDuplicateOrder(at instant: EpochNanoseconds, style: TimestampStyle,
                                             into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let record = orders.randomElement(using: &rng) else {
            return emitNewOrder(at: instant, style: style, into: &line, using: &rng)
        }
        let previewing = isPreviewing(InstallProfile(number: record.install, seed: seed), number: record.install, at: instant)
        writeOrder(record, previewing: previewing, amountBump: rng.chance(0.2) ? 100 : 0, at: instant, style: style, into: &line, using: &rng)
    }

    private func writeOrder(_ record: RecentOrder, previewing: Bool, amountBump: Int, at instant: EpochNanoseconds, style: TimestampStyle,
                            into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        var order = SeededRandom(seed: seed, stream: 7, index: record.number)
        let install = InstallProfile(number: record.install, seed: seed)
        let amount = GronaCatalog.prices[order.below(GronaCatalog.prices.count)] + amountBump
        let currency = GronaCatalog.currencies[GronaCatalog.currencyChoice.pick(using: &order)]
        let includeCustomer = order.chance(0.9)
        // Testers sometimes buy while a preview is pinned; anyone else almost never.
        let preview = order.chance(previewing ? 0.3 : 0.001)

        writeCommonFields(type: #""order""#, install: install, includeCustomer: includeCustomer,
                          at: instant, style: style, into: &line, using: &rng)
        line.field("orderId", prefix: "ORD-", decimal: 1_000_000 + Int(record.number))
        line.field("amountMinor", int: amount)
        if preview && rng.chance(0.5) {
            line.field("preview", bool: false)
            line.field("isPreview", bool: true)
        } else {
            line.field("preview", bool: preview)
            if rng.chance(0.1) {
                line.field("isPreview", bool: preview)
            }
        }
        if let currency {
            line.field("currency", currency)
        }
        writeClosingFields(into: &line, using: &rng)
    }

    // MARK: Preview links

    /// A tester opens a preview link. Testers are installs numbered 50k + 7; one beyond the
    /// installs seen so far paired before it logged anything else (and may never log more).
    private mutating func emitPreviewLink(at instant: EpochNanoseconds, style: TimestampStyle,
                                          into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        let installNumber = UInt64(rng.below(Int(installCount / 50) + 2)) * 50 + 7
        let install = InstallProfile(number: installNumber, seed: seed)
        var scenario = PreviewLinkScenario.random(using: &rng)
        // A pin ending one nanosecond late shows only with every fraction digit written.
        let style = scenario.pinNanoseconds % 1_000_000_000 == 0 ? style
            : TimestampStyle(zone: style.zone, fractionDigits: 9, lowercaseT: style.lowercaseT)
        let consent = writeCommonFields(
            type: #""preview_link""#, install: install, includeCustomer: rng.chance(0.5), at: instant, style: style,
            into: &line, using: &rng, consent: scenario.bug == .pairedWhileDenied ? .denied : nil)
        if consent == .denied && scenario.outcome == .paired && scenario.bug == nil {
            // Pairing sends the install id: the SDK refuses while consent is denied.
            scenario.outcome = .rejected
            scenario.reason = "consent denied"
        }
        if scenario.outcome == .paired {
            previewStarts?.startNow(installNumber)
        }
        line.key("url")
        line.append(quote)
        line.append(scenario.url)
        line.append(quote)
        line.key("outcome")
        line.append(quote)
        line.append(Array(scenario.outcome.name.utf8))
        line.append(quote)
        if scenario.outcome == .paired {
            let campaign = GronaCatalog.campaigns[install.pinnedCampaign]
            line.field("campaignId", campaign.id)
            line.field("variantId", campaign.variants[install.pinnedVariant])
            line.field("pinExpiresAt", instant: instant + scenario.pinNanoseconds, style: style)
        }
        if let reason = scenario.reason {
            line.key("reason")
            line.append(quote)
            line.append(reason)
            line.append(quote)
        }
        // Older SDKs copy the preview flags onto the link line: they mean nothing there.
        if rng.chance(0.05) {
            line.field("isPreview", bool: true)
        } else if rng.chance(0.02) {
            line.field("preview", literal: #""yes""#)
        }
        writeClosingFields(into: &line, using: &rng)
    }

    private var quote: StaticString { "\"" }

    // MARK: Shared fields

    /// Opens the object and writes `ts`, `type` (the SDK puts `ts` first), `installId`,
    /// `customerId` and `consent`. Consent is the install's, except on a few events where the
    /// shopper has just changed it, or where `consent` says otherwise. Returns the consent written.
    @discardableResult
    private func writeCommonFields(type: StaticString, install: InstallProfile, includeCustomer: Bool,
                                   at instant: EpochNanoseconds, style: TimestampStyle,
                                   into line: inout JSONLineBuilder, using rng: inout SeededRandom,
                                   consent: ConsentSpelling? = nil) -> ConsentSpelling {
        line.beginObject()
        line.field("ts", instant: instant, style: style)
        line.field("type", literal: type)
        line.key("installId")
        line.append(#"""#)
        line.appendHex(install.uuidHigh >> 32, digits: 8, uppercase: true)
        line.append("-")
        line.appendHex(install.uuidHigh >> 16, digits: 4, uppercase: true)
        line.append("-")
        line.appendHex(install.uuidHigh, digits: 4, uppercase: true)
        line.append("-")
        line.appendHex(install.uuidLow >> 48, digits: 4, uppercase: true)
        line.append("-")
        line.appendHex(install.uuidLow, digits: 12, uppercase: true)
        line.append(#"""#)
        if includeCustomer, let customer = install.customer {
            var shopper = SeededRandom(seed: seed, stream: 8, index: customer)
            line.field("customerId", prefix: "cus_", decimal: 10_000_000 + Int(shopper.next() % 90_000_000))
        } else if rng.chance(0.03) {
            line.field("customerId", literal: "null")
        }
        let spelling = consent ?? (rng.chance(0.03) ? ConsentSpelling.random(using: &rng) : install.consent)
        switch spelling {
        case .granted: line.field("consent", literal: #""granted""#)
        case .unknown: line.field("consent", literal: #""unknown""#)
        case .absent: break
        case .null: line.field("consent", literal: "null")
        case .denied: line.field("consent", literal: #""denied""#)
        }
        return spelling
    }

    /// Writes keys analysis ignores — the SDK's version on some events, nested diagnostics on a
    /// few — and closes the object.
    private func writeClosingFields(into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        if rng.chance(0.25) {
            line.field("sdk", GronaCatalog.sdks[rng.below(GronaCatalog.sdks.count)])
        }
        if rng.chance(0.02) {
            line.field("meta", literal: #"{"attempt":2,"tags":["cold-start",{"net":"wifi"}],"geo":null,"ratio":0.75}"#)
        }
        line.endObject()
    }
}
