import GroveReport

/// A valid event as ordered key/value pairs, values held as JSON literals, for `DefectiveLines`
/// to break in exactly one way before encoding it.
struct EventTemplate {
    enum Kind: CaseIterable {
        case linkClick, linkOpen, clickBind, decision, impression, order, grant, previewLink
    }

    /// Keys are held as JSON literals too: a duplicate may spell its key with a `\u` escape.
    private var fields: [(key: String, encodedKey: [UInt8], value: [UInt8])] = []
    /// The type's required fields (besides `type` and `ts`), in the check order of docs/EVENTS.md.
    private var requiredKeys: [String] = []
    /// The fields of type id: a JSON string of 1 to 256 bytes.
    private var idKeys: [String] = []

    init(kind: Kind, at instant: EpochNanoseconds, style: TimestampStyle, using rng: inout SeededRandom) {
        var timestamp = JSONLineBuilder(capacity: 40)
        timestamp.append(#"""#)
        style.append(instant, to: &timestamp)
        timestamp.append(#"""#)
        var pinExpiry = JSONLineBuilder(capacity: 40)
        pinExpiry.append(#"""#)
        style.append(instant + 8 * PreviewLinkScenario.hour, to: &pinExpiry)
        pinExpiry.append(#"""#)
        let installID = JSONText.literal("INSTALL-\(String(rng.next(), radix: 16, uppercase: true))")
        let clickID = JSONText.literal("clk_\(String(rng.next(), radix: 16))")

        switch kind {
        case .linkClick:
            add("type", #""link_click""#)
            add("ts", timestamp.bytes)
            add("clickId", clickID, required: true, id: true)
            add("appKey", #""grv8k2Qa""#, required: true, id: true)
            add("slug", #""spring""#, required: true, id: true)
            add("route", #""store""#, required: true)
            add("utm_campaign", #""spring-sale""#)
        case .linkOpen:
            add("type", #""link_open""#)
            add("ts", timestamp.bytes)
            add("openId", JSONText.literal("opn_\(String(rng.next(), radix: 16))"), required: true, id: true)
            add("appKey", #""grv8k2Qa""#, required: true, id: true)
            add("slug", #""spring""#, required: true, id: true)
            add("clickId", clickID, id: true)
            add("context", #""ctx_1""#)
        case .clickBind:
            add("type", #""click_bind""#)
            add("ts", timestamp.bytes)
            add("clickId", clickID, required: true, id: true)
            add("verifiedEmail", #""user1@example.com""#, required: true)
        case .decision:
            add("ts", timestamp.bytes)
            add("type", #""decision""#)
            add("installId", installID, required: true, id: true)
            add("consent", #""granted""#)
            add("campaignId", #""spring-banner""#, required: true, id: true)
            add("variantId", #""bold""#, required: true, id: true)
            add("isPreview", "false", required: true)
        case .impression:
            add("ts", timestamp.bytes)
            add("type", #""impression""#)
            add("installId", installID, required: true, id: true)
            add("campaignId", #""checkout-test""#, required: true, id: true)
            add("variantId", #""control""#, required: true, id: true)
            add("preview", "false", required: true)
        case .order:
            add("ts", timestamp.bytes)
            add("type", #""order""#)
            add("installId", installID, required: true, id: true)
            add("orderId", JSONText.literal("ORD-X\(rng.below(1_000_000))"), required: true, id: true)
            add("amountMinor", "1999", required: true)
            add("preview", "false", required: true)
            add("currency", #""EUR""#)
        case .grant:
            add("ts", timestamp.bytes)
            add("type", #""grant""#)
            add("installId", installID, required: true, id: true)
            add("campaignId", #""onboarding""#, required: true, id: true)
            add("variantId", #""minimal""#, required: true, id: true)
            add("offerId", #""offer-welcome""#, required: true, id: true)
            add("preview", "false", required: true)
        case .previewLink:
            add("ts", timestamp.bytes)
            add("type", #""preview_link""#)
            add("installId", installID, required: true, id: true)
            add("url", JSONText.literal("acmemarket://grona-preview?code=" + PreviewLinkScenario.code(length: 12, using: &rng)),
                required: true)
            add("outcome", #""paired""#, required: true)
            add("campaignId", #""spring-banner""#, required: true, id: true)
            add("variantId", #""bold""#, required: true, id: true)
            add("pinExpiresAt", pinExpiry.bytes, required: true)
        }
    }

    private mutating func add(_ key: String, _ literal: StaticString, required: Bool = false, id: Bool = false) {
        add(key, literal.withUTF8Buffer { Array($0) }, required: required, id: id)
    }

    private mutating func add(_ key: String, _ value: [UInt8], required: Bool = false, id: Bool = false) {
        fields.append((key, JSONText.literal(key), value))
        if required {
            requiredKeys.append(key)
        }
        if id {
            idKeys.append(key)
        }
    }

    // MARK: Edits

    func someKey(using rng: inout SeededRandom) -> String {
        fields[rng.below(fields.count)].key
    }

    func someRequiredKey(using rng: inout SeededRandom) -> String {
        requiredKeys[rng.below(requiredKeys.count)]
    }

    func someID(using rng: inout SeededRandom) -> String {
        idKeys[rng.below(idKeys.count)]
    }

    /// Replaces the value of `key`, or appends the field when the event has no such key.
    mutating func set(_ key: String, bytes value: [UInt8]) {
        if let index = fields.firstIndex(where: { $0.key == key }) {
            fields[index].value = value
        } else {
            fields.append((key, JSONText.literal(key), value))
        }
    }

    mutating func set(_ key: String, literal: StaticString) {
        set(key, bytes: literal.withUTF8Buffer { Array($0) })
    }

    /// Inserts a field somewhere after `type` and `ts`.
    mutating func insert(_ key: String, literal: StaticString, using rng: inout SeededRandom) {
        fields.insert((key, JSONText.literal(key), literal.withUTF8Buffer { Array($0) }),
                      at: rng.inRange(2...fields.count))
    }

    /// Repeats `key`, with its value, somewhere after its first occurrence — now and then with
    /// the key's first letter written as a `\u` escape, since keys compare after unescaping.
    mutating func duplicate(_ key: String, using rng: inout SeededRandom) {
        guard let index = fields.firstIndex(where: { $0.key == key }) else { return }
        var copy = fields[index]
        if rng.chance(0.3), let first = key.utf8.first {
            var encoded = [UInt8(ascii: "\"")]
            JSONText.appendUnicodeEscape(UInt16(first), to: &encoded)
            copy.encodedKey = encoded + Array(key.utf8.dropFirst()) + [UInt8(ascii: "\"")]
        }
        fields.insert(copy, at: rng.inRange(index + 1...fields.count))
    }

    mutating func remove(_ key: String) {
        fields.removeAll { $0.key == key }
    }

    /// The event as one JSON object, without a line ending.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, field) in fields.enumerated() {
            if index > 0 {
                bytes.append(UInt8(ascii: ","))
            }
            bytes += field.encodedKey
            bytes.append(UInt8(ascii: ":"))
            bytes += field.value
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
