#if canImport(Glibc)
import Glibc
#endif

/// Every key the event tables of SPEC section 2 name.
///
/// The reader resolves each top-level key to one of these once, while parsing, so validation
/// looks fields up by index and finds duplicates of known keys with a bit set.
public enum FieldName: UInt8, CaseIterable, Sendable {
    case type, ts
    case installId, customerId, consent
    case campaignId, variantId, isPreview, preview, control, unit
    case orderId, amountMinor, currency, offerId
    case clickId, appKey, slug, route
    case utmCampaign, utmSource, utmMedium, utmContent, utmTerm
    case openId, context, destination, verifiedEmail

    /// The key as it appears in the log.
    public var key: StaticString {
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
        }
    }

    var keyText: ByteString { ByteString(key.description) }

    /// Names grouped by key length, for resolving a key with few comparisons.
    private static let byLength: [[FieldName]] = {
        var table = [[FieldName]](repeating: [], count: 16)
        for name in FieldName.allCases { table[name.key.utf8CodeUnitCount].append(name) }
        return table
    }()

    /// The known name with exactly these (unescaped) bytes, or nil.
    static func resolve(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldName? {
        guard bytes.count < byLength.count, let base = bytes.baseAddress else { return nil }
        for name in byLength[bytes.count] where memcmp(base, name.key.utf8Start, bytes.count) == 0 {
            return name
        }
        return nil
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
}
