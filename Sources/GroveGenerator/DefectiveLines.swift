import GroveReport

/// Writes deliberately broken lines, one fault each, spread over every reject reason of the
/// contract (docs/EVENTS.md), plus lines the reader must ignore (blank lines, unknown event types). They are
/// rare, so clarity wins over speed here: each starts as a valid event, then is edited.
enum DefectiveLines {
    /// Which accounting bucket the line must land in.
    enum Outcome {
        case rejected
        case ignored
    }

    private enum Defect: CaseIterable {
        // invalid_json
        case truncated, notANumber, trailingGarbage, loneSurrogate, notAnObject, invalidUTF8,
             unescapedControl, tooDeep
        // duplicate_key, then the type / ts / allowlist checks
        case duplicateKey, missingType, nonStringType, missingTimestamp, impossibleTimestamp,
             disallowedOnOpen, disallowedOnBind
        // the type's own fields
        case missingField, nullField, wrongType, emptyID, overlongID, overlongText, badEmail
        // ignored, not rejected
        case blank, unknownType
    }
    private static let defectChoice = WeightedChoice([8, 3, 4, 3, 2, 3, 2, 2,
                                                      5, 3, 3, 4, 7, 6, 4,
                                                      6, 3, 9, 4, 4, 2, 5,
                                                      6, 4])

    /// Writes one defective line (without its line ending).
    static func emit(at instant: EpochNanoseconds, style: TimestampStyle,
              into line: inout JSONLineBuilder, using rng: inout SeededRandom) -> Outcome {
        let defect = Defect.allCases[defectChoice.pick(using: &rng)]
        switch defect {
        case .blank:
            line.append(blanks[rng.below(blanks.count)])
            return .ignored
        case .unknownType:
            line.append(unknownTypeLine(at: instant, style: style, using: &rng))
            return .ignored
        case .notAnObject:
            line.append(nonObjects[rng.below(nonObjects.count)])
            return .rejected
        default:
            line.append(brokenEvent(defect, at: instant, style: style, using: &rng))
            return .rejected
        }
    }

    private static let blanks: [StaticString] = ["", "   ", "\t", " \t "]
    private static let nonObjects: [StaticString] = [#"["link_click"]"#, #""decision""#, "42", "null", "true"]

    /// Another SDK's events: ignored whatever their other fields hold (an email included).
    private static func unknownTypeLine(at instant: EpochNanoseconds, style: TimestampStyle,
                                        using rng: inout SeededRandom) -> [UInt8] {
        var event = EventTemplate(kind: .decision, at: instant, style: style, using: &rng)
        event.set("type", literal: rng.chance(0.5) ? #""heartbeat""# : #""session_start""#)
        if rng.chance(0.3) {
            event.set("email", literal: #""someone@example.com""#)
        }
        if rng.chance(0.2) {
            event.remove("ts")
        }
        return event.encoded()
    }

    /// A valid event of `kind` (any kind when nil) broken by `defect`.
    private static func brokenEvent(_ defect: Defect, at instant: EpochNanoseconds, style: TimestampStyle,
                                    using rng: inout SeededRandom) -> [UInt8] {
        func template(_ kind: EventTemplate.Kind? = nil) -> EventTemplate {
            let kinds = EventTemplate.Kind.allCases
            return EventTemplate(kind: kind ?? kinds[rng.below(kinds.count)], at: instant, style: style, using: &rng)
        }
        var event: EventTemplate
        switch defect {
        case .truncated:
            let whole = template().encoded()
            return Array(whole[..<rng.inRange(1...whole.count - 2)])
        case .notANumber:
            event = template(.order)
            event.set("amountMinor", literal: pick(["NaN", "Infinity", "-Infinity"], using: &rng))
        case .trailingGarbage:
            return template().encoded() + pick([" x", "}", ",", " {}", #""""#], using: &rng).bytes
        case .loneSurrogate:
            event = template()
            event.set(event.someID(using: &rng), literal: pick([#""\ud800""#, #""abc\udc00""#, #""\ud800\u0041""#], using: &rng))
        case .invalidUTF8:
            event = template()
            let malformed: [[UInt8]] = [[0xC3, 0x28], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80]]
            event.set(event.someID(using: &rng),
                      bytes: Array(#""caf"#.utf8) + malformed[rng.below(malformed.count)] + [UInt8(ascii: "\"")])
        case .unescapedControl:
            event = template()
            event.set(event.someID(using: &rng), bytes: Array("\"tab\there\"".utf8))
        case .tooDeep:
            event = template(.linkOpen)
            event.set("context", bytes: [UInt8](repeating: UInt8(ascii: "["), count: 70)
                + [UInt8](repeating: UInt8(ascii: "]"), count: 70))
        case .duplicateKey:
            event = template()
            event.duplicate(event.someKey(using: &rng), using: &rng)
        case .missingType:
            event = template()
            event.remove("type")
        case .nonStringType:
            event = template()
            event.set("type", literal: pick(["7", #"["decision"]"#, "true"], using: &rng))
        case .missingTimestamp:
            event = template()
            if rng.chance(0.3) {
                event.set("ts", literal: "null")
            } else {
                event.remove("ts")
            }
        case .impossibleTimestamp:
            event = template()
            event.set("ts", literal: pick(impossibleTimestamps, using: &rng))
        case .disallowedOnOpen:
            event = template(.linkOpen)
            event.insert(["email", "userId", "projectId", "apiSecret"][rng.below(4)],
                         literal: pick([#""someone@example.com""#, #""u1""#, #""sk_live_51Hq""#], using: &rng),
                         using: &rng)
        case .disallowedOnBind:
            event = template(.clickBind)
            event.insert(["email", "userId", "ip"][rng.below(3)],
                         literal: pick([#""someone@example.com""#, #""u1""#, #""203.0.113.7""#], using: &rng),
                         using: &rng)
        case .missingField:
            event = template()
            event.remove(event.someRequiredKey(using: &rng))
        case .nullField:
            event = template()
            event.set(event.someRequiredKey(using: &rng), literal: "null")
        case .wrongType:
            let wrong = wrongTypes[rng.below(wrongTypes.count)]
            event = template(wrong.kind)
            event.set(wrong.key, literal: wrong.value)
        case .emptyID:
            event = template()
            event.set(event.someID(using: &rng), literal: #""""#)
        case .overlongID:
            event = template()
            // 257 bytes: ASCII, or 129 two-byte characters (only 129 characters, but 258 bytes).
            event.set(event.someID(using: &rng), bytes: JSONText.literal(rng.chance(0.5)
                ? String(repeating: "x", count: 257) : String(repeating: "é", count: 129)))
        case .overlongText:
            let field = overlongTextFields[rng.below(overlongTextFields.count)]
            event = template(field.kind)
            event.set(field.key, bytes: JSONText.literal(String(repeating: "a", count: 4097)))
        case .badEmail:
            event = template(.clickBind)
            event.set("verifiedEmail", literal: pick([#""no-at-sign.example.com""#, #""a@@example.com""#,
                                                      #""@example.com""#, #""user@ ""#, #""   ""#, #""""#],
                                                     using: &rng))
        case .blank, .unknownType, .notAnObject:
            preconditionFailure("handled by emit(at:style:into:using:)")
        }
        return event.encoded()
    }

    /// Text fields that may hold at most 4096 bytes.
    private static let overlongTextFields: [(kind: EventTemplate.Kind, key: String)] = [
        (.linkOpen, "context"), (.order, "currency"), (.linkClick, "utm_campaign"), (.previewLink, "url"),
    ]

    private static let impossibleTimestamps: [StaticString] = [
        #""2026-02-30T00:00:00Z""#, #""2026-03-03T23:59:60Z""#, #""2026-03-03 10:00:00Z""#,
        #""2026-03-03T10:00:00""#, #""2026-03-03T10:00:00.1234567890Z""#, #""2026-03-03T24:00:00Z""#,
        #""2026-03-03T10:00:00+24:00""#, #""""#, "1772524800", #"" 2026-03-03T10:00:00Z""#,
        #""2026-03-03T10:00:00.Z""#, #""2025-02-29T12:00:00Z""#,
    ]

    /// Values of the wrong JSON type or outside the allowed set, each for a field its event has.
    private static let wrongTypes: [(kind: EventTemplate.Kind, key: String, value: StaticString)] = [
        (.decision, "isPreview", #""true""#), (.decision, "isPreview", "1"), (.decision, "control", #""false""#),
        (.decision, "unit", #""device""#), (.decision, "consent", #""yes""#),
        (.impression, "preview", "1"), (.impression, "preview", #""false""#),
        (.order, "amountMinor", "1.5"), (.order, "amountMinor", "-5"), (.order, "amountMinor", "1e3"),
        (.order, "amountMinor", "9007199254740992"), (.order, "amountMinor", #""1200""#),
        (.order, "currency", "978"), (.linkClick, "route", #""web""#), (.linkOpen, "clickId", "42"),
        (.grant, "offerId", #"["offer-vip"]"#),
        (.previewLink, "outcome", #""done""#), (.previewLink, "pinExpiresAt", #""tomorrow""#), (.previewLink, "url", "7"),
    ]

    private static func pick(_ options: [StaticString], using rng: inout SeededRandom) -> StaticString {
        options[rng.below(options.count)]
    }
}

private extension StaticString {
    var bytes: [UInt8] {
        withUTF8Buffer { Array($0) }
    }
}
