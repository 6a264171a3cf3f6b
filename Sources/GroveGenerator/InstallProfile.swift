/// How an event spells its consent: `absent` (no key) and `null` both mean the default, `unknown`.
enum ConsentSpelling: CaseIterable {
    case granted, unknown, absent, null, denied

    private static let choice = WeightedChoice([75, 10, 8, 2, 5])

    static func random(using rng: inout SeededRandom) -> ConsentSpelling {
        allCases[choice.pick(using: &rng)]
    }
}

/// The attributes of one app install, drawn from its number alone, so any later event of the
/// install can be written again without remembering more than the number.
struct InstallProfile {
    /// The 128 bits of the install's UUID.
    var uuidHigh: UInt64
    var uuidLow: UInt64
    /// The identified shopper's number, if the install is logged in. Every seventh install
    /// belongs to the previous install's shopper, so some customers span two installs.
    var customer: UInt64?
    var consent: ConsentSpelling
    /// One install in fifty belongs to a tester who previews `pinnedVariant` of `pinnedCampaign`.
    var tester: Bool
    var pinnedCampaign: Int
    var pinnedVariant: Int

    init(number: UInt64, seed: UInt64) {
        var rng = SeededRandom(seed: seed, stream: 5, index: number)
        uuidHigh = rng.next()
        uuidLow = rng.next()
        customer = rng.chance(0.45) ? (number % 7 == 3 ? number - 1 : number) : nil
        consent = ConsentSpelling.random(using: &rng)
        tester = number % 50 == 7
        pinnedCampaign = GronaCatalog.previewableCampaigns[rng.below(GronaCatalog.previewableCampaigns.count)]
        pinnedVariant = rng.below(GronaCatalog.campaigns[pinnedCampaign].variants.count)
    }

    /// The variant a unit is assigned to: a stable hash of unit and campaign, as Grona buckets.
    func assignedVariant(campaign: Int, byCustomer: Bool, installNumber: UInt64, seed: UInt64) -> Int {
        // Customer numbers are install numbers too: a high bit keeps the two kinds of unit apart.
        let unit = byCustomer ? customer.map { $0 | 1 << 62 } ?? installNumber : installNumber
        var rng = SeededRandom(seed: seed, stream: 6, index: unit &* 16 &+ UInt64(campaign))
        return GronaCatalog.campaigns[campaign].split.pick(using: &rng)
    }
}
