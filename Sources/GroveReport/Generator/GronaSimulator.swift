/// Simulates the Grona SDK across many installs: decisions, impressions, grants and orders, with
/// customer-unit campaigns, preview testers who also produce ordinary events (contamination),
/// units that see two variants, the three consent states, duplicate order lines and orders both
/// before and after a unit's first exposure.
struct GronaSimulator {
    private enum Action: CaseIterable {
        case decision, impression, grant, order, duplicateOrder
    }
    private static let actionChoice = WeightedChoice([300, 450, 60, 20, 1])

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
    private var installCount: UInt64 = 0
    private var orderCount: UInt64 = 0
    private var installs = RecentPool<UInt64>(capacity: 4096)
    private var decisions = RecentPool<RecentDecision>(capacity: 4096)
    private var orders = RecentPool<RecentOrder>(capacity: 2048)

    init(seed: UInt64, newInstallShare: Double = 0.22) {
        self.seed = seed
        self.newInstallShare = newInstallShare
    }

    /// Writes one Grona event (without its line ending).
    mutating func emit(at instant: EpochNanoseconds, style: TimestampStyle,
                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        switch Action.allCases[Self.actionChoice.pick(using: &rng)] {
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
        }
    }

    /// A new install (which is remembered) or a recently active one. The first fifty choices
    /// are all new, so the opening lines are not all about one install.
    private mutating func chooseInstall(newShare: Double, using rng: inout SeededRandom) -> UInt64 {
        if installs.count >= 50, !rng.chance(newShare), let install = installs.randomElement(using: &rng) {
            return install
        }
        installCount += 1
        installs.add(installCount)
        return installCount
    }

    // MARK: Decisions

    private mutating func emitDecision(at instant: EpochNanoseconds, style: TimestampStyle,
                                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        let installNumber = chooseInstall(newShare: newInstallShare, using: &rng)
        let install = InstallProfile(number: installNumber, seed: seed)
        var record = RecentDecision(install: installNumber, campaign: 0, variant: 0, preview: false)
        var missingCustomer = false
        if install.tester && rng.chance(0.6) {
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
        decisions.add(record)

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
        guard let decision = decisions.randomElement(using: &rng) else {
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
        if rng.chance(0.6), let decision = decisions.randomElement(using: &rng),
           rng.below(GronaCatalog.conversionScale) < GronaCatalog.campaigns[decision.campaign].conversion[decision.variant] {
            installNumber = decision.install
        }
        let record = RecentOrder(number: orderCount,
                                 install: installNumber ?? chooseInstall(newShare: 0.25, using: &rng))
        orders.add(record)
        writeOrder(record, amountBump: 0, at: instant, style: style, into: &line, using: &rng)
    }

    /// The shop's webhook delivers some orders twice, now and then with a corrected amount.
    private mutating func emitDuplicateOrder(at instant: EpochNanoseconds, style: TimestampStyle,
                                             into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let record = orders.randomElement(using: &rng) else {
            return emitNewOrder(at: instant, style: style, into: &line, using: &rng)
        }
        writeOrder(record, amountBump: rng.chance(0.2) ? 100 : 0, at: instant, style: style, into: &line, using: &rng)
    }

    private func writeOrder(_ record: RecentOrder, amountBump: Int, at instant: EpochNanoseconds, style: TimestampStyle,
                            into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        var order = SeededRandom(seed: seed, stream: 7, index: record.number)
        let install = InstallProfile(number: record.install, seed: seed)
        let amount = GronaCatalog.prices[order.below(GronaCatalog.prices.count)] + amountBump
        let currency = GronaCatalog.currencies[GronaCatalog.currencyChoice.pick(using: &order)]
        let includeCustomer = order.chance(0.9)
        // Testers sometimes buy while a preview is pinned; anyone else almost never.
        let preview = order.chance(install.tester ? 0.3 : 0.001)

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

    // MARK: Shared fields

    /// Opens the object and writes `ts`, `type` (the SDK puts `ts` first), `installId`,
    /// `customerId` and `consent`. Consent is the install's, except on a few events where the
    /// shopper has just changed it.
    private func writeCommonFields(type: StaticString, install: InstallProfile, includeCustomer: Bool,
                                   at instant: EpochNanoseconds, style: TimestampStyle,
                                   into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
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
        switch rng.chance(0.03) ? ConsentSpelling.random(using: &rng) : install.consent {
        case .granted: line.field("consent", literal: #""granted""#)
        case .unknown: line.field("consent", literal: #""unknown""#)
        case .absent: break
        case .null: line.field("consent", literal: "null")
        case .denied: line.field("consent", literal: #""denied""#)
        }
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
