import GroveReport

/// A Grona campaign as the generator plays it.
struct GronaCampaign {
    var id: [UInt8]
    /// Whether units are customers (`"unit":"customer"`) rather than installs.
    var customerUnit: Bool
    var variants: [[UInt8]]
    /// How units are split across `variants`.
    var split: WeightedChoice
    /// The variant whose decisions carry `"control": true`, if the campaign has one.
    var control: Int?
    /// Per variant, the chance (out of `GronaCatalog.conversionScale`) that an exposed unit's
    /// order is attributed to this exposure, so the report has some lift to measure.
    var conversion: [Int]
    var offer: [UInt8]
}

/// The Grona vocabulary, pre-encoded as JSON literals once.
enum GronaCatalog {
    static let conversionScale = 130

    static let campaigns: [GronaCampaign] = [
        campaign("spring-banner", variants: ["control", "bold", "minimal"], split: [50, 25, 25],
                 conversion: [100, 130, 90], offer: "offer-spring10"),
        campaign("checkout-test", variants: ["control", "bold"], split: [50, 50],
                 conversion: [100, 115], offer: "offer-freeship"),
        campaign("onboarding", variants: ["control", "minimal", "bold"], split: [34, 33, 33],
                 conversion: [100, 95, 120], offer: "offer-welcome"),
        campaign("loyalty-tier", customerUnit: true, variants: ["control", "bold"], split: [50, 50],
                 conversion: [100, 125], offer: "offer-vip"),
        // No control variant: lift stays empty; a configuration may also mark it disabled.
        campaign("winter-legacy", variants: ["a", "b"], split: [50, 50], hasControl: false,
                 conversion: [100, 100], offer: "offer-winter"),
    ]
    static let campaignChoice = WeightedChoice([35, 25, 22, 14, 4])
    /// The install-unit campaigns a preview tester may pin, the legacy one less often (a
    /// configuration that disables it then sees previews of a disabled campaign).
    static let previewableCampaigns = [0, 0, 1, 1, 2, 2, 4]
    /// Where an anonymous install drawn into a customer-unit campaign is shown instead.
    static let anonymousFallbackCampaign = 2

    static let sdks = ["grona-ios/4.2.1", "grona-android/4.1.0"].map { JSONText.literal($0) }
    static let currencies: [[UInt8]?] = [JSONText.literal("EUR"), JSONText.literal("USD"), nil, JSONText.literal("GBP")]
    static let currencyChoice = WeightedChoice([68, 25, 5, 2])
    static let prices = [499, 999, 1499, 2999, 4999, 9999, 19999]

    private static func campaign(_ id: String, customerUnit: Bool = false, variants: [String], split: [Int],
                                 hasControl: Bool = true, conversion: [Int], offer: String) -> GronaCampaign {
        GronaCampaign(id: JSONText.literal(id), customerUnit: customerUnit,
                      variants: variants.map { JSONText.literal($0) }, split: WeightedChoice(split),
                      control: hasControl ? 0 : nil, conversion: conversion, offer: JSONText.literal(offer))
    }
}
