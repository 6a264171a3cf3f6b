/// Turns a parsed object into an accepted event, an ignored line or a reject reason, applying the
/// checks of docs/EVENTS.md in their stated order: `type`, `ts`, the allowlist, then the type's
/// fields in table order.
enum EventValidator {
    static let linkOpenAllowlist = FieldNameSet([
        .type, .ts, .openId, .appKey, .slug, .clickId, .context, .destination,
        .utmCampaign, .utmSource, .utmMedium, .utmContent, .utmTerm,
    ])
    static let clickBindAllowlist = FieldNameSet([.type, .ts, .clickId, .verifiedEmail])

    private static let typeNames: [(StaticString, EventType)] = EventType.allCases.map { type in
        switch type {
        case .decision: ("decision", type)
        case .impression: ("impression", type)
        case .order: ("order", type)
        case .grant: ("grant", type)
        case .linkClick: ("link_click", type)
        case .linkOpen: ("link_open", type)
        case .clickBind: ("click_bind", type)
        case .previewLink: ("preview_link", type)
        }
    }

    static func validate(_ object: ParsedObject, _ symbols: inout SymbolTable) throws(RejectReason) -> LineOutcome {
        let fields = FieldReader(object: object)
        guard let typeBytes = try fields.stringBytes(.type) else { throw .missingField(FieldName.type.keyText) }
        guard let type = typeNames.first(where: {
            ParsedObject.equal(typeBytes, $0.0.utf8Start, $0.0.utf8CodeUnitCount)
        })?.1 else {
            return .ignored(.unknownType)
        }
        let ts = try fields.requiredTimestamp(.ts)
        switch type {
        case .linkOpen: try checkAllowlist(object, linkOpenAllowlist)
        case .clickBind: try checkAllowlist(object, clickBindAllowlist)
        default: break
        }
        return .accepted(try event(type, ts: ts, fields, &symbols))
    }

    /// Rejects the first non-null member, in line order, whose key the allowlist does not name.
    private static func checkAllowlist(_ object: ParsedObject, _ allowlist: FieldNameSet) throws(RejectReason) {
        for field in object.fields where field.kind != .null {
            if let name = field.name, allowlist.contains(name) { continue }
            throw .disallowedField(EmailMask.apply(ByteString(object.bytes(field.key))))
        }
    }

    private static func event(
        _ type: EventType, ts: Instant, _ fields: FieldReader, _ symbols: inout SymbolTable
    ) throws(RejectReason) -> Event {
        switch type {
        case .decision:
            let subject = try GronaSubjectFields(fields)
            let campaignId = try fields.requiredID(.campaignId)
            let variantId = try fields.requiredID(.variantId)
            let isPreview = try fields.previewFlags(required: .isPreview)
            let control = try fields.optionalBool(.control) ?? false
            let unit = try fields.keyword(.unit, DecisionUnit.words, default: .install)
            return .decision(Decision(
                ts: ts, subject: subject.interned(&symbols), campaignId: symbols.internName(campaignId),
                variantId: symbols.internName(variantId), isPreview: isPreview, control: control, unit: unit))
        case .impression:
            let subject = try GronaSubjectFields(fields)
            let campaignId = try fields.requiredID(.campaignId)
            let variantId = try fields.requiredID(.variantId)
            let isPreview = try fields.previewFlags(required: .preview)
            return .impression(Impression(
                ts: ts, subject: subject.interned(&symbols), campaignId: symbols.internName(campaignId),
                variantId: symbols.internName(variantId), isPreview: isPreview))
        case .order:
            let subject = try GronaSubjectFields(fields)
            let orderId = try fields.requiredID(.orderId)
            let amountMinor = try fields.requiredInteger(.amountMinor)
            let isPreview = try fields.previewFlags(required: .preview)
            _ = try fields.optionalText(.currency)
            return .order(Order(
                ts: ts, subject: subject.interned(&symbols), orderId: symbols.intern(orderId), amountMinor: amountMinor,
                isPreview: isPreview))
        case .grant:
            let subject = try GronaSubjectFields(fields)
            let campaignId = try fields.requiredID(.campaignId)
            let variantId = try fields.requiredID(.variantId)
            let offerId = try fields.requiredID(.offerId)
            let isPreview = try fields.previewFlags(required: .preview)
            return .grant(Grant(
                ts: ts, subject: subject.interned(&symbols), campaignId: symbols.internName(campaignId),
                variantId: symbols.internName(variantId), offerId: symbols.intern(offerId), isPreview: isPreview))
        case .linkClick:
            let clickId = try fields.requiredID(.clickId)
            let appKey = try fields.requiredID(.appKey)
            let slug = try fields.requiredID(.slug)
            let route = try fields.keyword(.route, Route.words, default: nil)
            let utm = try UTMFields(fields)
            return .linkClick(LinkClick(
                ts: ts, clickId: symbols.intern(clickId), appKey: symbols.internWord(appKey), slug: symbols.internWord(slug),
                route: route, utm: utm.interned(&symbols)))
        case .linkOpen:
            let openId = try fields.requiredID(.openId)
            let appKey = try fields.requiredID(.appKey)
            let slug = try fields.requiredID(.slug)
            let clickId = try fields.optionalID(.clickId)
            let context = try fields.optionalText(.context)
            _ = try fields.optionalText(.destination)
            let utm = try UTMFields(fields)
            return .linkOpen(LinkOpen(
                ts: ts, openId: symbols.intern(openId), appKey: symbols.internWord(appKey), slug: symbols.internWord(slug),
                clickId: clickId.map { symbols.intern($0) }, context: context.map { symbols.intern($0) },
                utm: utm.interned(&symbols)))
        case .clickBind:
            let clickId = try fields.requiredID(.clickId)
            guard let email = try fields.optionalText(.verifiedEmail) else {
                throw .missingField(FieldName.verifiedEmail.keyText)
            }
            guard let normalizedEmail = EmailNormalizer.normalize(email, { symbols.intern($0) }) else {
                throw .badField(FieldName.verifiedEmail.keyText)
            }
            return .clickBind(ClickBind(ts: ts, clickId: symbols.intern(clickId), normalizedEmail: normalizedEmail))
        case .previewLink:
            // `isPreview` and `preview` are not part of this type: never read, never checked.
            let subject = try GronaSubjectFields(fields)
            guard let url = try fields.optionalText(.url) else { throw .missingField(FieldName.url.keyText) }
            let outcome = try fields.keyword(.outcome, [
                "paired": PreviewLinkOutcome.paired, "cleared": .cleared, "rejected": .rejected, "ignored": .ignored,
            ], default: nil)
            let paired = outcome == .paired
            let campaignId = try paired ? fields.requiredID(.campaignId) : fields.optionalID(.campaignId)
            let variantId = try paired ? fields.requiredID(.variantId) : fields.optionalID(.variantId)
            let pinExpiresAt = try paired ? fields.requiredTimestamp(.pinExpiresAt) : fields.optionalTimestamp(.pinExpiresAt)
            _ = try fields.optionalText(.reason)
            return .previewLink(PreviewLink(
                ts: ts, subject: subject.interned(&symbols), kind: PreviewLinkKind.classify(url), outcome: outcome,
                campaignId: campaignId.map { symbols.internName($0) }, variantId: variantId.map { symbols.internName($0) },
                pinExpiresAt: pinExpiresAt))
        }
    }
}

/// The common Grona fields, checked in table order and interned once the line has passed.
private struct GronaSubjectFields {
    let installId: UnsafeBufferPointer<UInt8>
    let customerId: UnsafeBufferPointer<UInt8>?
    let consent: Consent

    init(_ fields: FieldReader) throws(RejectReason) {
        installId = try fields.requiredID(.installId)
        customerId = try fields.optionalID(.customerId)
        consent = try fields.keyword(.consent, Consent.words, default: .unknown)
    }

    func interned(_ symbols: inout SymbolTable) -> GronaSubject {
        GronaSubject(
            installId: symbols.intern(installId), customerId: customerId.map { symbols.intern($0) }, consent: consent)
    }
}

/// The five `utm_*` fields, checked in table order and interned once the line has passed.
private struct UTMFields {
    let campaign, source, medium, content, term: UnsafeBufferPointer<UInt8>?

    init(_ fields: FieldReader) throws(RejectReason) {
        campaign = try fields.utm(.utmCampaign)
        source = try fields.utm(.utmSource)
        medium = try fields.utm(.utmMedium)
        content = try fields.utm(.utmContent)
        term = try fields.utm(.utmTerm)
    }

    func interned(_ symbols: inout SymbolTable) -> UTMParameters {
        func intern(_ value: UnsafeBufferPointer<UInt8>?) -> Symbol? { value.map { symbols.internWord($0) } }
        return UTMParameters(
            campaign: campaign.map { symbols.internName($0) }, source: intern(source), medium: intern(medium), content: intern(content),
            term: intern(term))
    }
}

/// Normalizes a verified email: trim ASCII whitespace, lower-case ASCII letters, exactly one `@`
/// with at least one byte on each side.
enum EmailNormalizer {
    /// `body` of the normalized bytes, or nil when `email` is not one. The bytes are written to a
    /// temporary buffer (on the stack when small) and given to `body` without an array: the two
    /// arrays of a `map` cost about 800 instructions an email, 70 a production line.
    static func normalize<Result>(
        _ email: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = email.firstIndex(where: { !isSpace($0) }),
              let last = email.lastIndex(where: { !isSpace($0) })
        else { return nil }
        let trimmed = UnsafeBufferPointer(rebasing: email[first...last])
        guard let at = trimmed.firstIndex(of: UInt8(ascii: "@")), at > 0, at < trimmed.count - 1,
              trimmed.lastIndex(of: UInt8(ascii: "@")) == at
        else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { lowered in
            for (index, byte) in trimmed.enumerated() {
                lowered.initializeElement(at: index, to: byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
            return body(UnsafeBufferPointer(lowered))
        }
    }
}
