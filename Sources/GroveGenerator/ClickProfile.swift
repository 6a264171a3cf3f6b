/// The UTM parameters of a link, as indices into `FunnelsGroveCatalog`'s tables.
struct UTMSelection {
    var campaign: Int
    var source: Int
    var medium: Int
    var content: Int
    var term: Int

    static func random(using rng: inout SeededRandom) -> UTMSelection {
        UTMSelection(campaign: FunnelsGroveCatalog.campaignChoice.pick(using: &rng),
                     source: FunnelsGroveCatalog.sourceChoice.pick(using: &rng),
                     medium: FunnelsGroveCatalog.mediumChoice.pick(using: &rng),
                     content: FunnelsGroveCatalog.contentChoice.pick(using: &rng),
                     term: FunnelsGroveCatalog.termChoice.pick(using: &rng))
    }
}

/// The attributes of one click, drawn from its number alone, so a duplicate line or an open
/// referring to the click can be written again without remembering anything but the number.
struct ClickProfile {
    var id: UInt64
    var appKey: Int
    var slug: Int
    var storeRoute: Bool
    var utm: UTMSelection

    /// Clicks the resolver recorded (`stream` 1) and click ids it never issued (`stream` 2, for
    /// orphan opens and bindings) come from separate streams, so their ids never coincide.
    init(number: UInt64, orphan: Bool, seed: UInt64) {
        var rng = SeededRandom(seed: seed, stream: orphan ? 2 : 1, index: number)
        id = rng.next()
        appKey = FunnelsGroveCatalog.appKeyChoice.pick(using: &rng)
        slug = FunnelsGroveCatalog.slugChoice.pick(using: &rng)
        storeRoute = rng.chance(0.55)
        utm = UTMSelection.random(using: &rng)
    }
}
