/// How far journeys reach across midnight with `generate --days`: how old the entity a later line
/// refers to may be, and how often the line reaches back days instead of minutes. Without
/// `--days` none of this applies and the generator keeps its minutes-old references.
struct MultiDayJourneys: Sendable {
    static let hour: EpochNanoseconds = 3_600_000_000_000
    static let day: EpochNanoseconds = 24 * hour

    /// How many days the clock sweeps, one output file each.
    let days: Int

    /// The simulated time the lines span.
    var span: EpochNanoseconds { EpochNanoseconds(days) * Self.day }

    /// A recent reference is at most this old, whatever the traffic, so "recent" means minutes
    /// at a thousand lines a day as at a million.
    static let recentHorizon = hour

    /// An open comes up to 3 days after its click. (A duplicate click line may date the click
    /// up to 10 minutes earlier, hence the hour to spare.)
    static let open = MemoryReach(maxAge: 3 * day - hour, longShare: 0.15, scheduleShare: 0.075)
    /// A binding comes up to 14 days after its click: shoppers log in when they come back.
    static let binding = MemoryReach(maxAge: 14 * day - hour, longShare: 0.35, scheduleShare: 0.115)
    /// The resolver logs a few clicks again up to a day later, with the click's own `ts`.
    static let duplicateClick = MemoryReach(maxAge: day, longShare: 0.05, scheduleShare: 0.003)
    /// An order comes up to 7 days after the exposure it follows. Any line may carry a `ts` up
    /// to 6 hours before its clock (a straggler), so an order reaches back 7 hours less than
    /// 7 days: even then no order is more than 7 days after its install's last earlier decision.
    static let order = MemoryReach(maxAge: 7 * day - 7 * hour, longShare: 0.3, scheduleShare: 0.012)
    /// Impressions and grants mostly follow a decision of the same session, now and then one
    /// of a day or two before.
    static let exposureFollowUp = MemoryReach(maxAge: 2 * day, longShare: 0.05, scheduleShare: 0.085)
    /// Installs come back to the app over two weeks.
    static let returningInstall = MemoryReach(maxAge: 14 * day, longShare: 0.25, scheduleShare: 0.8)
    /// Installs that order without a recent exposure were first seen up to 7 days before
    /// (less the straggler's 7 hours, as for `order`).
    static let orderingInstall = MemoryReach(maxAge: 7 * day - 7 * hour, longShare: 0.3, scheduleShare: 0.06)

    /// Share of lines the export delivers late: they keep their `ts` but land in the file of a
    /// later day (one or two days on).
    static let lateDeliveryShare = 0.002
}

/// How far back one kind of reference may reach, and how often it reaches back days.
///
/// `scheduleShare` is the share of new entities given such a later reference: about 0.9 times
/// `longShare` × (referring lines per new entity), so that nearly every scheduled reference is
/// taken when due and few references find none due (they then take a recent entity).
struct MemoryReach: Equatable, Sendable {
    /// The oldest entity (by its line's `ts`) the referring line may name.
    var maxAge: EpochNanoseconds
    /// Share of references that take an entity whose scheduled reference is due.
    var longShare: Double
    /// Share of new entities given a reference due up to `maxAge` later.
    var scheduleShare: Double
}
