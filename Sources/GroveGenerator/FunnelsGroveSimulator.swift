/// Simulates the FunnelsGrove resolver, app and customer backend: clicks and the resolver's
/// duplicate lines; opens with retries, conflicts, orphans and unresolved ones; bindings of clicks
/// to verified emails with retries, conflicts and orphans.
struct FunnelsGroveSimulator {
    private enum Action: CaseIterable {
        case click, duplicateClick, open, openRetry, openConflict, bind, bindRetry, bindConflict, orphanBind
    }
    private static let actionChoice = WeightedChoice([45, 3, 27, 4, 1, 15, 3, 1, 1])
    /// The same without the actions that repeat an id (`distinctIDs`).
    private static let distinctActionChoice = WeightedChoice([48, 0, 32, 0, 0, 15, 3, 1, 1])

    private struct RecentClick {
        var number: UInt64
        var instant: EpochNanoseconds
    }

    /// The click an open names in `clickId` — the server's answer to the open.
    private enum ClickReference {
        case known(UInt64)
        case orphan(UInt64)
        case unresolved
    }

    private struct RecentOpen {
        var number: UInt64
        var click: ClickReference
    }

    private struct RecentBinding {
        var click: UInt64
        var email: UInt64
    }

    /// How a line of an open relates to the open's first line.
    private enum OpenLine {
        case original
        /// Same payload; `toggleBlankCampaign` writes an absent `utm_campaign` as `""` (or the
        /// reverse), which normalizes to the same payload.
        case retry(toggleBlankCampaign: Bool)
        case conflict
    }

    private let seed: UInt64
    /// Every click and open line names a new id.
    private let distinctIDs: Bool
    private var clickCount: UInt64 = 0
    private var openCount: UInt64 = 0
    private var orphanCount: UInt64 = 0
    private var clicks: EntityMemory<RecentClick>
    private var opens = EntityMemory<RecentOpen>(capacity: 4096)
    private var bindings = EntityMemory<RecentBinding>(capacity: 4096)

    /// `journeys` (with `--days`) lets opens and bindings follow clicks of days before.
    init(seed: UInt64, journeys: MultiDayJourneys? = nil, distinctIDs: Bool = false) {
        self.seed = seed
        self.distinctIDs = distinctIDs
        clicks = EntityMemory(capacity: 4096, reaches: journeys == nil ? [] : [
            MultiDayJourneys.open, MultiDayJourneys.binding, MultiDayJourneys.duplicateClick,
        ])
    }

    /// Writes one FunnelsGrove event (without its line ending).
    mutating func emit(at instant: EpochNanoseconds, style: TimestampStyle,
                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        let choice = distinctIDs ? Self.distinctActionChoice : Self.actionChoice
        switch Action.allCases[choice.pick(using: &rng)] {
        case .click:
            emitNewClick(at: instant, style: style, into: &line, using: &rng)
        case .duplicateClick:
            emitDuplicateClick(at: instant, style: style, into: &line, using: &rng)
        case .open:
            emitNewOpen(at: instant, style: style, into: &line, using: &rng)
        case .openRetry:
            emitRepeatedOpen(conflict: false, at: instant, style: style, into: &line, using: &rng)
        case .openConflict:
            emitRepeatedOpen(conflict: true, at: instant, style: style, into: &line, using: &rng)
        case .bind:
            emitNewBinding(at: instant, style: style, into: &line, using: &rng)
        case .bindRetry:
            emitRepeatedBinding(conflict: false, at: instant, style: style, into: &line, using: &rng)
        case .bindConflict:
            emitRepeatedBinding(conflict: true, at: instant, style: style, into: &line, using: &rng)
        case .orphanBind:
            emitOrphanBinding(at: instant, style: style, into: &line, using: &rng)
        }
    }

    // MARK: Clicks

    private mutating func emitNewClick(at instant: EpochNanoseconds, style: TimestampStyle,
                                       into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        clickCount += 1
        clicks.add(RecentClick(number: clickCount, instant: instant), at: instant, using: &rng)
        let profile = ClickProfile(number: clickCount, orphan: false, seed: seed)
        writeClick(profile, at: instant, style: style, into: &line, using: &rng)
    }

    /// The resolver logs some clicks twice: mostly later and identical, sometimes at the same or
    /// an earlier instant, and now and then with a different route or campaign, so only the
    /// earliest-line rule decides the click's attributes.
    private mutating func emitDuplicateClick(at instant: EpochNanoseconds, style: TimestampStyle,
                                             into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let record = clicks.randomElement(referencedAt: instant, reach: MultiDayJourneys.duplicateClick,
                                                using: &rng) else {
            return emitNewClick(at: instant, style: style, into: &line, using: &rng)
        }
        var profile = ClickProfile(number: record.number, orphan: false, seed: seed)
        if rng.chance(0.3) {
            if rng.chance(0.5) {
                profile.storeRoute.toggle()
            } else {
                profile.utm.campaign = FunnelsGroveCatalog.campaignChoice.pick(using: &rng)
            }
        }
        let when: EpochNanoseconds
        switch rng.below(4) {
        case 0: when = record.instant
        case 1: when = record.instant - EpochNanoseconds(rng.inRange(1...600)) * 1_000_000_000
        default: when = instant
        }
        writeClick(profile, at: when, style: style, into: &line, using: &rng)
    }

    private func writeClick(_ profile: ClickProfile, at instant: EpochNanoseconds, style: TimestampStyle,
                            into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        line.beginObject()
        line.field("type", literal: #""link_click""#)
        line.field("ts", instant: instant, style: style)
        line.field("clickId", prefix: "clk_", hex: profile.id)
        line.field("appKey", FunnelsGroveCatalog.appKeys[profile.appKey])
        line.field("slug", FunnelsGroveCatalog.slugs[profile.slug])
        line.field("route", literal: profile.storeRoute ? #""store""# : #""app""#)
        writeUTM(profile.utm, toggleBlankCampaign: false, into: &line)
        if rng.chance(0.1) {
            line.field("ua", FunnelsGroveCatalog.userAgents[rng.below(FunnelsGroveCatalog.userAgents.count)])
        }
        line.endObject()
    }

    private func writeUTM(_ utm: UTMSelection, toggleBlankCampaign: Bool, into line: inout JSONLineBuilder) {
        let campaign = FunnelsGroveCatalog.campaigns[utm.campaign]
        if toggleBlankCampaign && (campaign?.count ?? 2) == 2 {
            // Absent becomes `""` and `""` becomes absent: the same normalized payload.
            if campaign == nil {
                line.field("utm_campaign", literal: #""""#)
            }
        } else if let campaign {
            line.field("utm_campaign", campaign)
        }
        if let source = FunnelsGroveCatalog.sources[utm.source] {
            line.field("utm_source", source)
        }
        if let medium = FunnelsGroveCatalog.mediums[utm.medium] {
            line.field("utm_medium", medium)
        }
        if let content = FunnelsGroveCatalog.contents[utm.content] {
            line.field("utm_content", content)
        }
        if let term = FunnelsGroveCatalog.terms[utm.term] {
            line.field("utm_term", term)
        }
    }

    // MARK: Opens

    private mutating func emitNewOpen(at instant: EpochNanoseconds, style: TimestampStyle,
                                      into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        openCount += 1
        let reference: ClickReference
        switch rng.below(100) {
        case 0..<85:
            if let click = clicks.randomElement(referencedAt: instant, reach: MultiDayJourneys.open, using: &rng) {
                reference = .known(click.number)
            } else {
                reference = .unresolved
            }
        case 85..<90:
            orphanCount += 1
            reference = .orphan(orphanCount)
        default:
            reference = .unresolved
        }
        let record = RecentOpen(number: openCount, click: reference)
        opens.add(record, at: instant, using: &rng)
        writeOpen(record, kind: .original, at: instant, style: style, into: &line, using: &rng)
    }

    /// The app retries an open with the same payload; a buggy or tampered client sends the same
    /// `openId` with a changed slug, campaign or context (a conflict).
    private mutating func emitRepeatedOpen(conflict: Bool, at instant: EpochNanoseconds, style: TimestampStyle,
                                           into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let record = opens.randomElement(using: &rng) else {
            return emitNewOpen(at: instant, style: style, into: &line, using: &rng)
        }
        let kind: OpenLine = conflict ? .conflict : .retry(toggleBlankCampaign: rng.chance(0.25))
        writeOpen(record, kind: kind, at: instant, style: style, into: &line, using: &rng)
    }

    private func writeOpen(_ record: RecentOpen, kind: OpenLine, at instant: EpochNanoseconds, style: TimestampStyle,
                           into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        var payload = SimulatedOpenPayload(record: record, seed: seed)
        var toggleBlankCampaign = false
        switch kind {
        case .original:
            break
        case .retry(let toggle):
            toggleBlankCampaign = toggle
            if rng.chance(0.2) {
                payload.hasDestination.toggle()
            }
        case .conflict:
            switch rng.below(3) {
            case 0: payload.slug = (payload.slug + 1) % FunnelsGroveCatalog.slugs.count
            case 1: payload.utm.campaign = FunnelsGroveCatalog.conflictCampaign
            default: payload.context = .token(rng.next())
            }
        }
        line.beginObject()
        line.field("type", literal: #""link_open""#)
        line.field("ts", instant: instant, style: style)
        line.field("openId", prefix: "opn_", hex: payload.id)
        line.field("appKey", FunnelsGroveCatalog.appKeys[payload.appKey])
        line.field("slug", FunnelsGroveCatalog.slugs[payload.slug])
        switch record.click {
        case .known(let number):
            line.field("clickId", prefix: "clk_", hex: ClickProfile(number: number, orphan: false, seed: seed).id)
        case .orphan(let number):
            line.field("clickId", prefix: "clk_", hex: ClickProfile(number: number, orphan: true, seed: seed).id)
        case .unresolved:
            break
        }
        switch payload.context {
        case .absent:
            break
        case .empty:
            line.field("context", literal: #""""#)
        case .token(let token):
            line.field("context", prefix: "ctx_", hex: token)
        case .screen(let sku):
            // Opaque JSON-in-a-string: exercises escaped quotes, and must never be decoded.
            line.key("context")
            line.append(#""{\"screen\":\"pdp\",\"sku\":\"SKU-"#)
            line.appendDecimal(sku)
            line.append(#"\"}""#)
        }
        if payload.hasDestination {
            line.field("destination", FunnelsGroveCatalog.destinations[payload.slug])
        }
        writeUTM(payload.utm, toggleBlankCampaign: toggleBlankCampaign, into: &line)
        if rng.chance(0.003) {
            // A null value counts as absent, so this key outside the allowlist is harmless.
            line.field("userId", literal: "null")
        }
        line.endObject()
    }

    /// The payload of an open, drawn from its number (and its click's attributes, which the app
    /// reads from the link it was opened with).
    private struct SimulatedOpenPayload {
        enum Context {
            case absent, empty
            case token(UInt64)
            case screen(sku: Int)
        }

        private static let contextChoice = WeightedChoice([30, 5, 45, 20])

        var id: UInt64
        var appKey: Int
        var slug: Int
        var utm: UTMSelection
        var context: Context
        var hasDestination: Bool

        init(record: RecentOpen, seed: UInt64) {
            var rng = SeededRandom(seed: seed, stream: 3, index: record.number)
            id = rng.next()
            let click: ClickProfile?
            switch record.click {
            case .known(let number): click = ClickProfile(number: number, orphan: false, seed: seed)
            case .orphan(let number): click = ClickProfile(number: number, orphan: true, seed: seed)
            case .unresolved: click = nil
            }
            if let click {
                appKey = click.appKey
                slug = click.slug
                utm = click.utm
            } else {
                appKey = FunnelsGroveCatalog.appKeyChoice.pick(using: &rng)
                slug = FunnelsGroveCatalog.slugChoice.pick(using: &rng)
                utm = UTMSelection.random(using: &rng)
            }
            switch Self.contextChoice.pick(using: &rng) {
            case 0: context = .absent
            case 1: context = .empty
            case 2: context = .token(rng.next())
            default: context = .screen(sku: rng.inRange(1000...9999))
            }
            hasDestination = rng.chance(0.6)
        }
    }

    // MARK: Bindings

    private mutating func emitNewBinding(at instant: EpochNanoseconds, style: TimestampStyle,
                                         into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let click = clicks.randomElement(referencedAt: instant, reach: MultiDayJourneys.binding, using: &rng) else {
            return emitOrphanBinding(at: instant, style: style, into: &line, using: &rng)
        }
        // A shopper's email follows from the click, so several clicks may share one shopper.
        var shopper = SeededRandom(seed: seed, stream: 4, index: click.number)
        let record = RecentBinding(click: click.number, email: shopper.next() % 40_000)
        bindings.add(record, at: instant, using: &rng)
        writeBinding(clickID: ClickProfile(number: click.number, orphan: false, seed: seed).id,
                     email: record.email, at: instant, style: style, into: &line, using: &rng)
    }

    /// The backend retries a binding with the same address (its case and surrounding whitespace
    /// may differ) or, in a conflict, sends another address for an already bound click.
    private mutating func emitRepeatedBinding(conflict: Bool, at instant: EpochNanoseconds, style: TimestampStyle,
                                              into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        guard let record = bindings.randomElement(using: &rng) else {
            return emitNewBinding(at: instant, style: style, into: &line, using: &rng)
        }
        writeBinding(clickID: ClickProfile(number: record.click, orphan: false, seed: seed).id,
                     email: conflict ? record.email + 1 : record.email,
                     at: instant, style: style, into: &line, using: &rng)
    }

    private mutating func emitOrphanBinding(at instant: EpochNanoseconds, style: TimestampStyle,
                                            into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        orphanCount += 1
        writeBinding(clickID: ClickProfile(number: orphanCount, orphan: true, seed: seed).id,
                     email: UInt64(rng.below(40_000)), at: instant, style: style, into: &line, using: &rng)
    }

    /// Spellings of one address: as typed, capitalized, upper-case domain, leading blanks,
    /// trailing whitespace, or several at once.
    private static let emailSpellingChoice = WeightedChoice([70, 10, 8, 6, 4, 2])
    /// Trailing whitespace as it appears inside the JSON string (escaped where it must be).
    private static let emailTrailers: [StaticString] = [#"\t"#, #"\n"#, #"\r\n"#, " "]

    private func writeBinding(clickID: UInt64, email: UInt64, at instant: EpochNanoseconds, style: TimestampStyle,
                              into line: inout JSONLineBuilder, using rng: inout SeededRandom) {
        line.beginObject()
        line.field("type", literal: #""click_bind""#)
        line.field("ts", instant: instant, style: style)
        line.field("clickId", prefix: "clk_", hex: clickID)
        line.key("verifiedEmail")
        let spelling = Self.emailSpellingChoice.pick(using: &rng)
        line.append(spelling == 3 || spelling == 5 ? #""  "# : #"""#)
        line.append(spelling == 1 || spelling == 5 ? "User" : "user")
        line.appendDecimal(Int(email))
        line.append("@")
        let domain = Int(email % UInt64(FunnelsGroveCatalog.emailDomains.count))
        line.append(spelling == 2 || spelling == 5
                    ? FunnelsGroveCatalog.upperCaseEmailDomains[domain]
                    : FunnelsGroveCatalog.emailDomains[domain])
        if spelling == 4 || spelling == 5 {
            line.append(Self.emailTrailers[rng.below(Self.emailTrailers.count)])
        }
        line.append(#"""#)
        line.endObject()
    }
}
