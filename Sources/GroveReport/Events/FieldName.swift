#if canImport(Glibc)
import Glibc
#endif

/// Every key the event tables of docs/EVENTS.md name.
///
/// The reader resolves each top-level key to one of these once, while parsing, so validation
/// looks fields up by index and finds duplicates of known keys with a bit set.
enum FieldName: UInt8, CaseIterable, Sendable {
    case type, ts
    case installId, customerId, consent
    case campaignId, variantId, isPreview, preview, control, unit
    case orderId, amountMinor, currency, offerId
    case clickId, appKey, slug, route
    case utmCampaign, utmSource, utmMedium, utmContent, utmTerm
    case openId, context, destination, verifiedEmail
    case url, outcome, pinExpiresAt, reason

    /// The key as it appears in the log.
    var key: StaticString {
        switch self {
        case .type: "type"
        case .ts: "ts"
        case .installId: "installId"
        case .customerId: "customerId"
        case .consent: "consent"
        case .campaignId: "campaignId"
        case .variantId: "variantId"
        case .isPreview: "isPreview"
        case .preview: "preview"
        case .control: "control"
        case .unit: "unit"
        case .orderId: "orderId"
        case .amountMinor: "amountMinor"
        case .currency: "currency"
        case .offerId: "offerId"
        case .clickId: "clickId"
        case .appKey: "appKey"
        case .slug: "slug"
        case .route: "route"
        case .utmCampaign: "utm_campaign"
        case .utmSource: "utm_source"
        case .utmMedium: "utm_medium"
        case .utmContent: "utm_content"
        case .utmTerm: "utm_term"
        case .openId: "openId"
        case .context: "context"
        case .destination: "destination"
        case .verifiedEmail: "verifiedEmail"
        case .url: "url"
        case .outcome: "outcome"
        case .pinExpiresAt: "pinExpiresAt"
        case .reason: "reason"
        }
    }

    var keyText: ByteString { ByteString(key.description) }

    /// The known name with exactly these (unescaped) bytes, or nil.
    static func resolve(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldName? {
        resolver.resolve(bytes)
    }

    /// Built once; a reader keeps a copy, so that the key of every member of every line is
    /// resolved without the lazy-initialization check of a static (1 % of a run's time).
    static let resolver = Resolver()

    /// Resolves keys by a perfect hash of their first eight bytes and length.
    struct Resolver: Sendable {
        /// A multiplier under which the 32 keys hash to distinct slots of a 64-entry table (found
        /// by search; `FieldNameTests` checks it still holds).
        private static let multiplier: UInt64 = 0x5892_A36A_2523_30ED

        /// Each slot of the perfect hash table: its name's key and the name; an empty slot has
        /// `ShortKey.none`, which no key looked up matches.
        private let entries: [Entry]

        private struct Entry: Sendable {
            var key = ShortKey.none
            var name: FieldName?
        }

        fileprivate init() {
            var entries = [Entry](repeating: Entry(), count: 64)
            for name in FieldName.allCases {
                let key = UnsafeBufferPointer(start: name.key.utf8Start, count: name.key.utf8CodeUnitCount)
                let head = ByteWord.littleEndian(key)
                let slot = Self.slot(head: head, count: key.count)
                precondition(entries[slot].name == nil, "FieldName.Resolver.multiplier no longer separates the keys")
                entries[slot] = Entry(key: ShortKey(key, head: head), name: name)
            }
            self.entries = entries
        }

        /// The known name with exactly these (unescaped) bytes, or nil.
        @inline(__always)
        func resolve(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldName? {
            guard bytes.count >= 2, bytes.count <= 13 else { return nil }
            let head = ByteWord.littleEndian(bytes)
            let entry = entries[Self.slot(head: head, count: bytes.count)]
            guard entry.key.matches(bytes, head: head) else { return nil }
            return entry.name
        }

        /// The slot of a key: its first eight bytes (zero-padded) and its length, hashed multiplicatively.
        private static func slot(head: UInt64, count: Int) -> Int {
            Int(((head ^ UInt64(truncatingIfNeeded: count) << 56) &* multiplier) >> 58)
        }
    }
}

/// A set of field names as a bit mask: the allowlists.
struct FieldNameSet {
    let bits: UInt32

    init(_ names: [FieldName]) {
        bits = names.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    }

    func contains(_ name: FieldName) -> Bool {
        bits & (1 << UInt32(name.rawValue)) != 0
    }

    /// The keys of the set's names as they appear in the log, for code that reads raw bytes.
    var keys: [[UInt8]] {
        FieldName.allCases.filter(contains).map { name in
            Array(UnsafeBufferPointer(start: name.key.utf8Start, count: name.key.utf8CodeUnitCount))
        }
    }
}
