/// What attribution keeps of one click (all lines with one `clickId`): its earliest line and a line count.
struct ClickRecord: MergeableRecord {
    var earliest: LinkClick
    var lines = 1

    init(_ click: LinkClick) {
        earliest = click
    }

    mutating func merge(_ other: ClickRecord, symbols: SymbolTable) {
        if Self.precedes(other.earliest, earliest, symbols) { earliest = other.earliest }
        lines += other.lines
    }

    func translated(_ translation: SymbolTranslation) -> ClickRecord {
        var copy = self
        copy.earliest.clickId = translation[earliest.clickId]
        copy.earliest.appKey = translation[earliest.appKey]
        copy.earliest.slug = translation[earliest.slug]
        copy.earliest.utm = earliest.utm.translated(translation)
        return copy
    }

    /// Smallest `ts`, ties by `route, appKey, slug, utm_campaign, utm_source, utm_medium, utm_content, utm_term`.
    static func precedes(_ lhs: LinkClick, _ rhs: LinkClick, _ symbols: SymbolTable) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        // "app" < "store" byte-wise.
        if lhs.route != rhs.route { return lhs.route == .app }
        if lhs.appKey != rhs.appKey { return symbols.precedes(lhs.appKey, rhs.appKey) }
        if lhs.slug != rhs.slug { return symbols.precedes(lhs.slug, rhs.slug) }
        return symbols.precedes(lhs.utm.all, rhs.utm.all)
    }
}

extension SymbolTable {
    /// Byte-wise order of tuples of optional strings, an absent value first.
    func precedes(_ lhs: [Symbol?], _ rhs: [Symbol?]) -> Bool {
        for (left, right) in zip(lhs, rhs) where left != right {
            return precedes(left, right)
        }
        return false
    }
}

extension UTMParameters {
    func translated(_ translation: SymbolTranslation) -> UTMParameters {
        UTMParameters(
            campaign: translation[campaign], source: translation[source], medium: translation[medium],
            content: translation[content], term: translation[term])
    }
}
