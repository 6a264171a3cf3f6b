import GroveReport

/// The FunnelsGrove vocabulary — app keys, slugs, UTM values — pre-encoded as JSON literals once,
/// so writing a line only copies bytes. In the optional tables `nil` means the key is absent.
enum FunnelsGroveCatalog {
    static let appKeys = ["grv8k2Qa", "shopEU01"].map { JSONText.literal($0) }
    static let appKeyChoice = WeightedChoice([85, 15])

    private static let slugNames = ["spring", "promo-42", "welcome", "summer/drop", "ref-friends"]
    static let slugs = slugNames.map { JSONText.literal($0) }
    /// Where an open of each slug lands in the app (the server's answer, not part of the payload).
    static let destinations = slugNames.map { JSONText.literal("https://shop.example.com/\($0)?src=fg") }
    static let slugChoice = WeightedChoice([30, 25, 20, 15, 10])

    /// `utm_campaign`: a few real campaigns; absent and empty (both report as `(none)`); and a
    /// small share of hostile names that test CSV quoting and formula-injection guarding (comma,
    /// quote, newline, control character, leading `=` `+` `-` `@`, a plain negative number that
    /// must *not* be guarded, non-ASCII written raw and as `\u` escapes, a non-BMP emoji).
    static let campaigns: [[UInt8]?] = [
        JSONText.literal("spring-sale"), JSONText.literal("summer-launch"),
        JSONText.literal("newsletter-march"), JSONText.literal("referral"),
        nil, JSONText.literal(""),
        JSONText.literal("sale, 50% off"), JSONText.literal("the \"best\" deal"),
        JSONText.literal("line1\nline2"), JSONText.literal("bell\u{7}tab\tcampaign"),
        JSONText.literal("=HYPERLINK(\"http://evil.example\",\"x\")"), JSONText.literal("+1-promo"),
        JSONText.literal("-20%"), JSONText.literal("@partners"), JSONText.literal("-5"),
        JSONText.literal("été-2026"), JSONText.literal("été-2026", asciiOnly: true),
        JSONText.literal("🌸 hanami"), JSONText.literal("🌸 hanami", asciiOnly: true),
        JSONText.literal("retargeting"),
    ]
    /// `retargeting`, last, has weight 0: no click carries it, so a conflicting open that switches
    /// to it surely differs from its original.
    static let campaignChoice = WeightedChoice([300, 180, 100, 70, 200, 50,
                                                6, 4, 4, 2, 4, 3, 3, 3, 2, 5, 5, 3, 3, 0])
    static let conflictCampaign = campaigns.count - 1

    static let sources: [[UInt8]?] = [nil, JSONText.literal(""), JSONText.literal("instagram"),
                                      JSONText.literal("newsletter"), JSONText.literal("tiktok"),
                                      JSONText.literal("google")]
    static let sourceChoice = WeightedChoice([25, 5, 30, 20, 12, 8])
    static let mediums: [[UInt8]?] = [nil, JSONText.literal(""), JSONText.literal("social"),
                                      JSONText.literal("email"), JSONText.literal("cpc")]
    static let mediumChoice = WeightedChoice([30, 5, 35, 20, 10])
    static let contents: [[UInt8]?] = [nil, JSONText.literal("hero"), JSONText.literal("story-3")]
    static let contentChoice = WeightedChoice([80, 12, 8])
    static let terms: [[UInt8]?] = [nil, JSONText.literal("running shoes"), JSONText.literal("gift")]
    static let termChoice = WeightedChoice([90, 6, 4])

    static let userAgents = [
        "Mozilla/5.0 (iPhone; CPU iPhone OS 19_2 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
        "Mozilla/5.0 (Linux; Android 16; Pixel 9) AppleWebKit/537.36 Chrome/140.0 Mobile Safari/537.36",
    ].map { JSONText.literal($0) }

    static let emailDomains = ["example.com", "mail.example.org", "example.net"].map { Array($0.utf8) }
    /// The same domains in upper case: a retry's address may differ from the first only in case.
    static let upperCaseEmailDomains = ["EXAMPLE.COM", "Mail.Example.org", "Example.NET"].map { Array($0.utf8) }
}
