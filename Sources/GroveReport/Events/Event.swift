/// Whether the shopper allowed analytics; `denied` events are accepted but never analysed.
enum Consent: UInt8, Sendable, LogWords {
    case granted, unknown, denied

    static let words: KeyValuePairs<StaticString, Consent> = ["granted": .granted, "unknown": .unknown, "denied": .denied]
}

/// What a Grona decision assigns a variant to: the app install or the identified customer.
enum DecisionUnit: UInt8, Sendable, LogWords {
    case install, customer

    static let words: KeyValuePairs<StaticString, DecisionUnit> = ["install": .install, "customer": .customer]
}

/// Where a FunnelsGrove link click was sent.
enum Route: UInt8, Sendable, LogWords {
    case store, app

    static let words: KeyValuePairs<StaticString, Route> = ["store": .store, "app": .app]
}

/// The fields every Grona event carries about who produced it.
///
/// Events hold `Symbol`s of the `SymbolTable` they were validated into, never heap strings.
struct GronaSubject: Sendable, Hashable {
    var installId: Symbol
    var customerId: Symbol?
    var consent: Consent
}

/// A Grona `decision`: the SDK assigned a variant of a campaign to a unit.
struct Decision: Sendable, Hashable {
    var ts: Instant
    var subject: GronaSubject
    var campaignId: Symbol
    var variantId: Symbol
    /// True when `isPreview` or `preview` is true.
    var isPreview: Bool
    var control: Bool
    var unit: DecisionUnit
}

/// A Grona `impression`: a variant was shown.
struct Impression: Sendable, Hashable {
    var ts: Instant
    var subject: GronaSubject
    var campaignId: Symbol
    var variantId: Symbol
    var isPreview: Bool
}

/// A Grona `order`: a purchase, matched to units for conversions.
struct Order: Sendable, Hashable {
    var ts: Instant
    var subject: GronaSubject
    var orderId: Symbol
    var amountMinor: Int64
    var isPreview: Bool
}

/// A Grona `grant`: an offer of a campaign variant was granted.
struct Grant: Sendable, Hashable {
    var ts: Instant
    var subject: GronaSubject
    var campaignId: Symbol
    var variantId: Symbol
    var offerId: Symbol
    var isPreview: Bool
}

/// What the SDK did with a preview link it recognized (docs/EVENTS.md, `preview_link`).
package enum PreviewLinkOutcome: Int, CaseIterable, Sendable {
    /// A pin was stored for `campaignId`/`variantId`, valid until `pinExpiresAt`.
    case paired
    /// The pins were removed.
    case cleared
    /// The SDK refused the link.
    case rejected
    /// An exchange was already in flight, or no preview URL is configured.
    case ignored

    /// The `outcome` value in the log and in `preview_audit.json`.
    package var name: String {
        switch self {
        case .paired: "paired"
        case .cleared: "cleared"
        case .rejected: "rejected"
        case .ignored: "ignored"
        }
    }
}

/// A Grona `preview_link`: the SDK's log of one preview link and what it did with it.
///
/// Only the kind of its URL is kept: the URL may hold a pairing code, a one-time credential that
/// must never reach an output. It carries no preview flag.
struct PreviewLink: Sendable, Hashable {
    var ts: Instant
    var subject: GronaSubject
    var kind: PreviewLinkKind
    var outcome: PreviewLinkOutcome
    /// Present whenever `outcome` is `paired`.
    var campaignId: Symbol?
    var variantId: Symbol?
    var pinExpiresAt: Instant?
}

/// The five `utm_*` parameters of a link, an empty string already turned into absent.
///
/// Stored as symbol numbers plus one (0 = absent): four bytes a parameter instead of an
/// optional's eight, which matters in records kept per click and per open.
struct UTMParameters: Sendable, Hashable {
    private var stored: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0)

    init(
        campaign: Symbol? = nil, source: Symbol? = nil, medium: Symbol? = nil,
        content: Symbol? = nil, term: Symbol? = nil
    ) {
        stored = (Symbol.packed(campaign), Symbol.packed(source), Symbol.packed(medium), Symbol.packed(content), Symbol.packed(term))
    }

    private static func unpack(_ value: UInt32) -> Symbol? { Symbol(packed: value) }

    var campaign: Symbol? { Self.unpack(stored.0) }
    var source: Symbol? { Self.unpack(stored.1) }
    var medium: Symbol? { Self.unpack(stored.2) }
    var content: Symbol? { Self.unpack(stored.3) }
    var term: Symbol? { Self.unpack(stored.4) }

    /// The five parameters in tie-break order.
    var all: [Symbol?] { [campaign, source, medium, content, term] }

    static func == (lhs: UTMParameters, rhs: UTMParameters) -> Bool {
        lhs.stored == rhs.stored
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(stored.0)
        hasher.combine(stored.1)
        hasher.combine(stored.2)
        hasher.combine(stored.3)
        hasher.combine(stored.4)
    }
}

/// A FunnelsGrove `link_click` recorded by the resolver.
struct LinkClick: Sendable, Hashable {
    var ts: Instant
    var clickId: Symbol
    var appKey: Symbol
    var slug: Symbol
    var route: Route
    var utm: UTMParameters
}

/// A FunnelsGrove `link_open` recorded by the app; `destination` is validated but not kept.
struct LinkOpen: Sendable, Hashable {
    var ts: Instant
    var openId: Symbol
    var appKey: Symbol
    var slug: Symbol
    /// `clickId` and `context` as `Symbol.packed`: four bytes each rather than an optional's
    /// eight, which every open record of millions holds.
    private var packedClickId: UInt32
    private var packedContext: UInt32
    var utm: UTMParameters

    init(ts: Instant, openId: Symbol, appKey: Symbol, slug: Symbol, clickId: Symbol?, context: Symbol?, utm: UTMParameters) {
        (self.ts, self.openId, self.appKey, self.slug, self.utm) = (ts, openId, appKey, slug, utm)
        (packedClickId, packedContext) = (Symbol.packed(clickId), Symbol.packed(context))
    }

    var clickId: Symbol? {
        get { Symbol(packed: packedClickId) }
        set { packedClickId = Symbol.packed(newValue) }
    }

    /// Opaque: compared as bytes for retries, never decoded.
    var context: Symbol? {
        get { Symbol(packed: packedContext) }
        set { packedContext = Symbol.packed(newValue) }
    }
}

/// A FunnelsGrove `click_bind`: the backend bound a click to a verified email after login.
struct ClickBind: Sendable, Hashable {
    var ts: Instant
    var clickId: Symbol
    /// Trimmed and ASCII-lower-cased; lives in memory only, never in an output.
    var normalizedEmail: Symbol
}

/// An accepted event: one line that passed every check of docs/EVENTS.md.
enum Event: Sendable, Hashable {
    case decision(Decision)
    case impression(Impression)
    case order(Order)
    case grant(Grant)
    case linkClick(LinkClick)
    case linkOpen(LinkOpen)
    case clickBind(ClickBind)
    case previewLink(PreviewLink)

    var type: EventType {
        switch self {
        case .decision: .decision
        case .impression: .impression
        case .order: .order
        case .grant: .grant
        case .linkClick: .linkClick
        case .linkOpen: .linkOpen
        case .clickBind: .clickBind
        case .previewLink: .previewLink
        }
    }
}

/// The eight event types, in the order reports list them (`preview_link`, the newest, last).
enum EventType: Int, CaseIterable, Sendable, Comparable {
    case decision, impression, order, grant, linkClick, linkOpen, clickBind, previewLink

    /// The `type` value in the log.
    var name: String {
        switch self {
        case .decision: "decision"
        case .impression: "impression"
        case .order: "order"
        case .grant: "grant"
        case .linkClick: "link_click"
        case .linkOpen: "link_open"
        case .clickBind: "click_bind"
        case .previewLink: "preview_link"
        }
    }

    /// The Grona types that carry a preview flag: the preview and consent-denied totals count these.
    static let grona: [EventType] = [.decision, .impression, .order, .grant]

    static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.rawValue < rhs.rawValue }
}
