import Foundation
@testable import GroveGenerator
@testable import GroveReport

/// What a `generate --days` log set says about its journeys, read back through the pipeline's
/// own validation: when each click, open, binding and order happened (its earliest line, as
/// docs/ATTRIBUTION.md and docs/EXPOSURE.md define it) and the first day's file it arrived in.
struct GeneratedJourneys: Sendable {
    static let day: Int64 = 86_400_000_000_000
    static let hour: Int64 = 3_600_000_000_000

    /// An entity's earliest `ts` (nanoseconds since the epoch) and the first file (day) holding it.
    struct Sighting: Sendable {
        var time: Int64
        var file: Int

        mutating func merge(_ other: Sighting) {
            time = min(time, other.time)
            file = min(file, other.file)
        }
    }

    /// A Grona install in one campaign.
    struct InstallCampaign: Hashable, Sendable {
        var install: Symbol
        var campaign: Symbol
    }

    /// One reference, from the entity referred to to the one that refers to it.
    struct Reference: Sendable {
        var from: Sighting
        var to: Sighting

        var delay: Int64 { to.time - from.time }
        var crossesFiles: Bool { from.file < to.file }
    }

    /// File paths, in day order.
    var files: [String]
    /// The `ts` of every accepted line, per file.
    var lineTimes: [[Int64]] = []
    var clicks: [Symbol: Sighting] = [:]
    /// Each open's sighting and the click its earliest line names.
    var opens: [Symbol: (sighting: Sighting, click: Symbol?)] = [:]
    /// Bindings by click.
    var bindings: [Symbol: Sighting] = [:]
    var orders: [Symbol: (sighting: Sighting, install: Symbol)] = [:]
    /// Every decision line, per install.
    var decisions: [Symbol: [Sighting]] = [:]
    /// The first decision that is not preview, per install and campaign.
    var firstOrdinaryDecision: [InstallCampaign: Sighting] = [:]
    /// The first preview decision, impression or grant, or paired link, per install and campaign.
    var firstPreview: [InstallCampaign: Sighting] = [:]

    /// Generates `events` lines over `days` days with `seed` into a temporary directory and
    /// reads them back.
    static func generate(events: Int, days: Int, seed: UInt64) throws -> GeneratedJourneys {
        let directory = try temporaryDirectory("journeys-\(seed)")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summary = try LogGenerator.generate(GeneratorOptions(events: events, seed: seed, days: days), into: directory)
        var journeys = GeneratedJourneys(files: summary.files)
        var symbols = SymbolTable()
        for (file, path) in summary.files.enumerated() {
            var times: [Int64] = []
            for line in try gunzip(path).split(separator: UInt8(ascii: "\n")) {
                guard case .accepted(let event) = classifyInterning(Array(line), &symbols) else { continue }
                times.append(journeys.add(event, file: file))
            }
            journeys.lineTimes.append(times)
        }
        return journeys
    }

    /// Records one accepted event; returns its time.
    private mutating func add(_ event: Event, file: Int) -> Int64 {
        func sighting(_ instant: Instant) -> Sighting {
            Sighting(time: instant.seconds * 1_000_000_000 + Int64(instant.nanoseconds), file: file)
        }
        switch event {
        case .linkClick(let click):
            let seen = sighting(click.ts)
            clicks[click.clickId, default: seen].merge(seen)
            return seen.time
        case .linkOpen(let open):
            let seen = sighting(open.ts)
            if let known = opens[open.openId] {
                let earliest = seen.time < known.sighting.time
                var merged = known.sighting
                merged.merge(seen)
                opens[open.openId] = (merged, earliest ? open.clickId : known.click)
            } else {
                opens[open.openId] = (seen, open.clickId)
            }
            return seen.time
        case .clickBind(let binding):
            let seen = sighting(binding.ts)
            bindings[binding.clickId, default: seen].merge(seen)
            return seen.time
        case .order(let order):
            let seen = sighting(order.ts)
            if let known = orders[order.orderId] {
                var merged = known.sighting
                merged.merge(seen)
                orders[order.orderId] = (merged, seen.time < known.sighting.time ? order.subject.installId : known.install)
            } else {
                orders[order.orderId] = (seen, order.subject.installId)
            }
            return seen.time
        case .decision(let decision):
            let seen = sighting(decision.ts)
            decisions[decision.subject.installId, default: []].append(seen)
            let key = InstallCampaign(install: decision.subject.installId, campaign: decision.campaignId)
            if decision.isPreview {
                firstPreview[key, default: seen].merge(seen)
            } else {
                firstOrdinaryDecision[key, default: seen].merge(seen)
            }
            return seen.time
        case .impression(let impression):
            let seen = sighting(impression.ts)
            if impression.isPreview {
                firstPreview[InstallCampaign(install: impression.subject.installId, campaign: impression.campaignId),
                             default: seen].merge(seen)
            }
            return seen.time
        case .grant(let grant):
            let seen = sighting(grant.ts)
            if grant.isPreview {
                firstPreview[InstallCampaign(install: grant.subject.installId, campaign: grant.campaignId),
                             default: seen].merge(seen)
            }
            return seen.time
        case .previewLink(let link):
            let seen = sighting(link.ts)
            if link.outcome == .paired, let campaign = link.campaignId {
                firstPreview[InstallCampaign(install: link.subject.installId, campaign: campaign), default: seen]
                    .merge(seen)
            }
            return seen.time
        }
    }

    /// Opens that name a known click, from the click to the open.
    var opensOfClicks: [Reference] {
        opens.values.compactMap { open in
            open.click.flatMap { clicks[$0] }.map { Reference(from: $0, to: open.sighting) }
        }
    }

    /// Bindings of known clicks, from the click to the binding.
    var bindingsOfClicks: [Reference] {
        bindings.compactMap { click, binding in clicks[click].map { Reference(from: $0, to: binding) } }
    }

    /// Orders of installs with a decision at or before them, from the install's latest such
    /// decision to the order.
    var ordersAfterExposure: [Reference] {
        orders.values.compactMap { order in
            let earlier = decisions[order.install, default: []].filter { $0.time <= order.sighting.time }
            return earlier.max { $0.time < $1.time }.map { Reference(from: $0, to: order.sighting) }
        }
    }

    /// Installs that previewed a campaign only after an ordinary decision of it in an earlier
    /// day's file, from that decision to the first preview event.
    var lateStartingTesters: [Reference] {
        firstPreview.compactMap { key, preview in
            firstOrdinaryDecision[key].flatMap { ordinary in
                ordinary.time < preview.time && ordinary.file < preview.file
                    ? Reference(from: ordinary, to: preview) : nil
            }
        }
    }

    /// The start of day `index`'s file.
    static func dayStart(_ index: Int) -> Int64 {
        Int64(CivilDate.daysSinceEpoch(year: 2026, month: 3, day: 2) + index) * day
    }
}
