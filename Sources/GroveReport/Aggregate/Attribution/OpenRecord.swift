/// The part of a `link_open` a retry must repeat: `appKey, slug, context` and the five `utm_*`.
/// `clickId` and `destination` are the server's answer, not the payload.
struct OpenPayload: Hashable, Sendable {
    var appKey: ByteString
    var slug: ByteString
    var context: ByteString?
    var utm: UTMParameters

    init(_ open: LinkOpen) {
        appKey = open.appKey
        slug = open.slug
        context = open.context
        utm = open.utm
    }
}

/// What attribution keeps of one open (all lines with one `openId`): the original line and how
/// many lines carried each distinct payload, so retries and conflicts can be told apart once the
/// original is known, whatever order the lines arrive in.
struct OpenRecord: MergeableRecord, Sendable, Equatable {
    var original: LinkOpen
    var payloads: ValueCounts<OpenPayload>

    init(_ open: LinkOpen) {
        original = open
        payloads = ValueCounts(OpenPayload(open))
    }

    private var originalLines: Int { payloads.lines(of: OpenPayload(original)) }

    /// Later lines with the original's payload.
    var retries: Int { originalLines - 1 }

    /// Later lines with another payload.
    var conflicts: Int { payloads.total - originalLines }

    mutating func merge(_ other: OpenRecord) {
        if Self.precedes(other.original, original) { original = other.original }
        payloads.merge(other.payloads)
    }

    /// Smallest `ts`, ties by `appKey, slug, context, utm_campaign, utm_source, utm_medium,
    /// utm_content, utm_term, clickId`.
    static func precedes(_ lhs: LinkOpen, _ rhs: LinkOpen) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        if lhs.appKey != rhs.appKey { return lhs.appKey < rhs.appKey }
        if lhs.slug != rhs.slug { return lhs.slug < rhs.slug }
        return TieBreak.precedes(
            [lhs.context] + lhs.utm.all + [lhs.clickId], [rhs.context] + rhs.utm.all + [rhs.clickId])
    }
}
