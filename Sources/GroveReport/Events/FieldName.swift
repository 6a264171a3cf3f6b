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
    case url, outcome, pinExpiresAt, reason

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
        case .url: "url"
        case .outcome: "outcome"
        case .pinExpiresAt: "pinExpiresAt"
        case .reason: "reason"
        }
    }

    var keyText: ByteString { ByteString(key.description) }

    /// A multiplier under which the 32 keys hash to distinct slots of a 64-entry table (found by
    /// search; `FieldNameTests` checks it still holds).
    private static let multiplier: UInt64 = 0x5892_A36A_2523_30ED

    /// The field name of each slot of the perfect hash table, or nil.
    private static let table: [FieldName?] = {
        var table = [FieldName?](repeating: nil, count: 64)
        for name in FieldName.allCases {
            let key = UnsafeBufferPointer(start: name.key.utf8Start, count: name.key.utf8CodeUnitCount)
            precondition(table[slot(key)] == nil, "FieldName.multiplier no longer separates the keys")
            table[slot(key)] = name
        }
        return table
    }()

    /// The slot of a key: its first eight bytes (zero-padded) and its length, hashed multiplicatively.
    private static func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let word = SymbolTable.littleEndianWord(bytes) ^ UInt64(truncatingIfNeeded: bytes.count) << 56
        return Int((word &* multiplier) >> 58)
    }

    /// The known name with exactly these (unescaped) bytes, or nil.
    static func resolve(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldName? {
        guard bytes.count >= 2, bytes.count <= 13, let name = table[slot(bytes)] else { return nil }
        let key = name.key
        guard key.utf8CodeUnitCount == bytes.count, memcmp(bytes.baseAddress!, key.utf8Start, bytes.count) == 0 else {
            return nil
        }
        return name
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
