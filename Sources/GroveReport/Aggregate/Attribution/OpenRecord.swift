/// The part of a `link_open` a retry must repeat: `appKey, slug, context` and the five `utm_*`.
/// `clickId` and `destination` are the server's answer, not the payload.
struct OpenPayload: Hashable, Sendable {
    var appKey: Symbol
    var slug: Symbol
    var context: Symbol?
    var utm: UTMParameters

    init(_ open: LinkOpen) {
        appKey = open.appKey
        slug = open.slug
        context = open.context
        utm = open.utm
    }

    func translated(_ translation: SymbolTranslation) -> OpenPayload {
        var copy = self
        copy.appKey = translation[appKey]
        copy.slug = translation[slug]
        copy.context = translation[context]
        copy.utm = utm.translated(translation)
        return copy
    }
}

/// What attribution keeps of one open (all lines with one `openId`): the original line and how
/// many lines carried each distinct payload, so retries and conflicts can be told apart once the
/// original is known, whatever order the lines arrive in.
struct OpenRecord: EarliestLineRecord {
    var original: LinkOpen
    var payloads: ValueCounts<OpenPayload>

    init(_ open: LinkOpen) {
        original = open
        payloads = ValueCounts(OpenPayload(open))
    }

    /// The names the stage records and the state rows know the two parts by.
    var earliest: LinkOpen {
        get { original }
        _modify { yield &original }
    }

    var valueCounts: ValueCounts<OpenPayload> {
        get { payloads }
        _modify { yield &payloads }
    }

    static func value(of open: LinkOpen) -> OpenPayload { OpenPayload(open) }

    func translated(_ translation: SymbolTranslation) -> OpenRecord {
        var copy = self
        copy.original.openId = translation[original.openId]
        copy.original.appKey = translation[original.appKey]
        copy.original.slug = translation[original.slug]
        copy.original.clickId = translation[original.clickId]
        copy.original.context = translation[original.context]
        copy.original.utm = original.utm.translated(translation)
        copy.payloads = payloads.map { $0.translated(translation) }
        return copy
    }

    /// Smallest `ts`, ties by `appKey, slug, context, utm_campaign, utm_source, utm_medium,
    /// utm_content, utm_term, clickId`.
    static func precedes(_ lhs: LinkOpen, _ rhs: LinkOpen, _ symbols: SymbolTable) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        if lhs.appKey != rhs.appKey { return symbols.precedes(lhs.appKey, rhs.appKey) }
        if lhs.slug != rhs.slug { return symbols.precedes(lhs.slug, rhs.slug) }
        return symbols.precedes(
            [lhs.context] + lhs.utm.all + [lhs.clickId], [rhs.context] + rhs.utm.all + [rhs.clickId])
    }
}
