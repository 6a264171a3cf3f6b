import GroveReport

/// The metadata the Grona SDK adds to every event in production — versions, platform, session,
/// placement, geography, device details and the cart's items. The analysis ignores all of it, but
/// the reader still has to validate it, so benchmark data must carry it
/// (`generate --shape production`).
///
/// It is appended to a finished Grona line, so the simulators need not know about it, and it draws
/// from its own random stream, so it changes nothing else about the line.
struct SDKMetadata {
    private var rng: SeededRandom

    init(seed: UInt64) {
        rng = SeededRandom(seed: seed, stream: 12, index: 0)
    }

    private static let sdkVersions = literals(["4.12.3", "4.12.4", "4.13.0", "5.0.0-beta.2", "3.9.11"])
    private static let appVersions = literals(["7.3.1", "7.3.2", "7.4.0", "6.9.8"])
    private static let placements = literals(["home_banner", "checkout_sheet", "onboarding/step-2", "pdp_inline",
                                              "cart_drawer", "push_landing"])
    private static let countries = literals(["DE", "FR", "US", "GB", "NL", "ES", "IT", "PL", "SE", "JP"])
    private static let channels = literals(["organic", "paid_social", "email", "push", "deeplink"])
    private static let models = literals(["iPhone15,2", "iPhone14,7", "SM-S918B", "Pixel 8", "iPad13,4",
                                          "Redmi Note 12 \"Pro\"", "Galaxy Tab S9 \u{2013} Wi-Fi"])
    private static let osVersions = literals(["17.5.1", "17.4", "14", "13", "16.7.8"])
    private static let locales = literals(["de_DE", "fr_FR", "en_US", "en_GB", "nl_NL", "ja_JP"])
    private static let skus = literals(["SKU-10042", "SKU-20417", "SKU-31800", "SKU-77001", "SKU-90313"])

    private static func literals(_ texts: [String]) -> [[UInt8]] {
        texts.map { JSONText.literal($0) }
    }

    /// Adds 5 to 10 metadata keys to the object `line` has just closed.
    mutating func decorate(_ line: inout JSONLineBuilder) {
        line.reopenObject()
        let iOS = rng.chance(0.55)
        line.field("sdkVersion", pick(Self.sdkVersions))
        line.field("platform", literal: iOS ? #""ios""# : #""android""#)
        line.field("appVersion", pick(Self.appVersions))
        line.key("sessionId")
        line.append(#"""#)
        line.appendHex(rng.next(), digits: 16)
        line.append(#"""#)
        line.field("ipCountry", pick(Self.countries))
        if rng.chance(0.15) {
            line.field("placement", pick(Self.placements))
        }
        if rng.chance(0.15) {
            line.field("channel", pick(Self.channels))
        }
        if rng.chance(0.06) {
            line.key("device")
            line.append(#"{"model":"#)
            line.append(pick(Self.models))
            line.append(#","os":"#)
            line.append(pick(Self.osVersions))
            line.append(#","locale":"#)
            line.append(pick(Self.locales))
            line.append(#","lowPower":"#)
            line.append(rng.chance(0.1) ? "true" : "false")
            line.append(#","dpr":3.0}"#)
        }
        if rng.chance(0.05) {
            line.key("items")
            line.append("[")
            for item in 0..<(1 + rng.below(2)) {
                if item > 0 { line.append(",") }
                line.append(#"{"sku":"#)
                line.append(pick(Self.skus))
                line.append(#","qty":"#)
                line.appendDecimal(1 + rng.below(3))
                line.append(#","priceMinor":"#)
                line.appendDecimal(199 + 100 * rng.below(60))
                line.append("}")
            }
            line.append("]")
        }
        if rng.chance(0.1) {
            line.key("latencyMs")
            line.appendDecimal(rng.below(900))
            line.append(".")
            line.appendDecimal(rng.below(10))
        }
        line.endObject()
    }

    private mutating func pick(_ choices: [[UInt8]]) -> [UInt8] {
        choices[rng.below(choices.count)]
    }
}
