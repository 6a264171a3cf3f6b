/// Turns a parsed object into an accepted event, an ignored line or a reject reason, applying the
/// checks of SPEC section 2 in their stated order: `type`, `ts`, the allowlist, then the type's
/// fields in table order.
enum EventValidator {
    static let linkOpenAllowlist: [StaticString] = [
        "type", "ts", "openId", "appKey", "slug", "clickId", "context", "destination",
        "utm_campaign", "utm_source", "utm_medium", "utm_content", "utm_term",
    ]
    static let clickBindAllowlist: [StaticString] = ["type", "ts", "clickId", "verifiedEmail"]

    private static let typeNames: [(StaticString, EventType)] = EventType.allCases.map { type in
        switch type {
        case .decision: ("decision", type)
        case .impression: ("impression", type)
        case .order: ("order", type)
        case .grant: ("grant", type)
        case .linkClick: ("link_click", type)
        case .linkOpen: ("link_open", type)
        case .clickBind: ("click_bind", type)
        }
    }

    static func validate(_ object: ParsedObject) throws(RejectReason) -> LineOutcome {
        let fields = FieldReader(object: object)
        guard let typeBytes = try fields.stringBytes("type") else { throw .missingField(ByteString("type")) }
        guard let type = typeNames.first(where: {
            ParsedObject.equal(typeBytes, $0.0.utf8Start, $0.0.utf8CodeUnitCount)
        })?.1 else {
            return .ignored(.unknownType)
        }
        let ts = try fields.requiredTimestamp("ts")
        switch type {
        case .linkOpen: try checkAllowlist(object, linkOpenAllowlist)
        case .clickBind: try checkAllowlist(object, clickBindAllowlist)
        default: break
        }
        return .accepted(try event(type, ts: ts, fields))
    }

    /// Rejects the first non-null member, in line order, whose key the allowlist does not name.
    private static func checkAllowlist(_ object: ParsedObject, _ allowlist: [StaticString]) throws(RejectReason) {
        for index in 0..<object.count where object.fields[index].kind != .null {
            let key = object.key(at: index)
            let allowed = allowlist.contains { ParsedObject.equal(key, $0.utf8Start, $0.utf8CodeUnitCount) }
            if !allowed { throw .disallowedField(ByteString(key)) }
        }
    }

    private static func event(_ type: EventType, ts: Instant, _ fields: FieldReader) throws(RejectReason) -> Event {
        switch type {
        case .decision:
            let subject = try gronaSubject(fields)
            let campaignId = try fields.requiredID("campaignId")
            let variantId = try fields.requiredID("variantId")
            let isPreview = try fields.requiredBool("isPreview")
            let preview = try fields.optionalBool("preview") ?? false
            let control = try fields.optionalBool("control") ?? false
            let unit = try fields.keyword(
                "unit", ["install": DecisionUnit.install, "customer": .customer], default: .install)
            return .decision(Decision(
                ts: ts, subject: subject, campaignId: campaignId, variantId: variantId,
                isPreview: isPreview || preview, control: control, unit: unit))
        case .impression:
            let subject = try gronaSubject(fields)
            let campaignId = try fields.requiredID("campaignId")
            let variantId = try fields.requiredID("variantId")
            let preview = try fields.requiredBool("preview")
            let isPreview = try fields.optionalBool("isPreview") ?? false
            return .impression(Impression(
                ts: ts, subject: subject, campaignId: campaignId, variantId: variantId,
                isPreview: isPreview || preview))
        case .order:
            let subject = try gronaSubject(fields)
            let orderId = try fields.requiredID("orderId")
            let amountMinor = try fields.requiredInteger("amountMinor")
            let preview = try fields.requiredBool("preview")
            let isPreview = try fields.optionalBool("isPreview") ?? false
            try fields.checkText("currency")
            return .order(Order(
                ts: ts, subject: subject, orderId: orderId, amountMinor: amountMinor,
                isPreview: isPreview || preview))
        case .grant:
            let subject = try gronaSubject(fields)
            let campaignId = try fields.requiredID("campaignId")
            let variantId = try fields.requiredID("variantId")
            let offerId = try fields.requiredID("offerId")
            let preview = try fields.requiredBool("preview")
            let isPreview = try fields.optionalBool("isPreview") ?? false
            return .grant(Grant(
                ts: ts, subject: subject, campaignId: campaignId, variantId: variantId, offerId: offerId,
                isPreview: isPreview || preview))
        case .linkClick:
            let clickId = try fields.requiredID("clickId")
            let appKey = try fields.requiredID("appKey")
            let slug = try fields.requiredID("slug")
            let route = try fields.keyword("route", ["store": Route.store, "app": .app], default: nil)
            let utm = try utmParameters(fields)
            return .linkClick(LinkClick(ts: ts, clickId: clickId, appKey: appKey, slug: slug, route: route, utm: utm))
        case .linkOpen:
            let openId = try fields.requiredID("openId")
            let appKey = try fields.requiredID("appKey")
            let slug = try fields.requiredID("slug")
            let clickId = try fields.optionalID("clickId")
            let context = try fields.optionalText("context")
            try fields.checkText("destination")
            let utm = try utmParameters(fields)
            return .linkOpen(LinkOpen(
                ts: ts, openId: openId, appKey: appKey, slug: slug, clickId: clickId, context: context, utm: utm))
        case .clickBind:
            let clickId = try fields.requiredID("clickId")
            guard let email = try fields.optionalText("verifiedEmail") else {
                throw .missingField(ByteString("verifiedEmail"))
            }
            guard let normalized = EmailNormalizer.normalize(email) else {
                throw .badField(ByteString("verifiedEmail"))
            }
            return .clickBind(ClickBind(ts: ts, clickId: clickId, normalizedEmail: normalized))
        }
    }

    private static func gronaSubject(_ fields: FieldReader) throws(RejectReason) -> GronaSubject {
        let installId = try fields.requiredID("installId")
        let customerId = try fields.optionalID("customerId")
        let consent = try fields.keyword(
            "consent", ["granted": Consent.granted, "unknown": .unknown, "denied": .denied],
            default: .unknown)
        return GronaSubject(installId: installId, customerId: customerId, consent: consent)
    }

    private static func utmParameters(_ fields: FieldReader) throws(RejectReason) -> UTMParameters {
        UTMParameters(
            campaign: try fields.utm("utm_campaign"), source: try fields.utm("utm_source"),
            medium: try fields.utm("utm_medium"), content: try fields.utm("utm_content"),
            term: try fields.utm("utm_term"))
    }
}

/// Normalizes a verified email: trim ASCII whitespace, lower-case ASCII letters, exactly one `@`
/// with at least one byte on each side.
enum EmailNormalizer {
    static func normalize(_ email: ByteString) -> ByteString? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = email.bytes.firstIndex(where: { !isSpace($0) }),
              let last = email.bytes.lastIndex(where: { !isSpace($0) })
        else { return nil }
        let lowered = email.bytes[first...last].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard let at = lowered.firstIndex(of: UInt8(ascii: "@")), at > 0, at < lowered.count - 1,
              lowered.lastIndex(of: UInt8(ascii: "@")) == at
        else { return nil }
        return ByteString(lowered)
    }
}

/// Classifies one line into its accounting bucket; keep one per thread to reuse its buffers.
public struct LineClassifier {
    private var reader = JSONObjectReader()

    public init() {}

    /// The outcome of a line no longer than the limit, without its line ending.
    public mutating func classify(_ line: UnsafeBufferPointer<UInt8>) -> LineOutcome {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .ignored(.blank) }
        guard reader.parse(line) else { return .rejected(.invalidJSON) }
        return reader.withObject(line) { object in
            if let key = object.firstRepeatedKey() { return .rejected(.duplicateKey(key)) }
            do throws(RejectReason) {
                return try EventValidator.validate(object)
            } catch {
                return .rejected(error)
            }
        }
    }
}
