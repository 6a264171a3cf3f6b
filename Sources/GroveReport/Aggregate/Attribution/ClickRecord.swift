/// What attribution keeps of one click (all lines with one `clickId`): its earliest line and a line count.
struct ClickRecord: MergeableRecord, Sendable, Equatable {
    var earliest: LinkClick
    var lines = 1

    init(_ click: LinkClick) {
        earliest = click
    }

    /// The campaign the click counts toward: its `utm_campaign`, or `(none)`.
    var campaign: ByteString { earliest.utm.campaign ?? AttributionResult.noCampaign }

    mutating func merge(_ other: ClickRecord) {
        if Self.precedes(other.earliest, earliest) { earliest = other.earliest }
        lines += other.lines
    }

    /// Smallest `ts`, ties by `route, appKey, slug, utm_campaign, utm_source, utm_medium, utm_content, utm_term`.
    static func precedes(_ lhs: LinkClick, _ rhs: LinkClick) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        if lhs.route != rhs.route { return routeName(lhs.route) < routeName(rhs.route) }
        if lhs.appKey != rhs.appKey { return lhs.appKey < rhs.appKey }
        if lhs.slug != rhs.slug { return lhs.slug < rhs.slug }
        return TieBreak.precedes(lhs.utm.all, rhs.utm.all)
    }

    private static func routeName(_ route: Route) -> ByteString {
        route == .store ? ByteString("store") : ByteString("app")
    }
}

/// Byte-wise comparison of tuples of optional strings, an absent value sorting first.
enum TieBreak {
    static func precedes(_ lhs: [ByteString?], _ rhs: [ByteString?]) -> Bool {
        for (left, right) in zip(lhs, rhs) where left != right {
            return ByteString?.precedes(left, right)
        }
        return false
    }
}
