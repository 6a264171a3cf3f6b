/// A reason not to trust a campaign's exposure numbers (docs/EXPOSURE.md, Health warnings).
///
/// Warnings change no number: they tell the reader which numbers to read with care. Cases are
/// declared in byte-wise order of their names, the order reports list them in.
enum HealthWarning: String, Sendable, CaseIterable, Comparable {
    /// A row of the campaign has fewer than `fewUnitsLimit` units (a configured variant without
    /// traffic included): its rate and interval say little.
    case fewUnits = "few_units"
    /// At least `multipleExposuresShare` of the campaign's units saw more than one variant (and
    /// there are enough units to tell): the assignment leaks.
    case multipleExposures = "multiple_exposures"
    /// Zero or several control variants, so no lift was computed.
    case noSingleControl = "no_single_control"
    /// The units split differs from the expected shares beyond chance (`srm_p_value` < 0.001).
    case sampleRatioMismatch = "sample_ratio_mismatch"

    /// Below this many units a row is `few_units`.
    static let fewUnitsLimit = 8
    /// `srm_p_value` below this is a sample-ratio mismatch.
    static let sampleRatioMismatchLimit = 0.001
    /// Multi-variant units plus units below this are too few for `multiple_exposures`.
    static let multipleExposuresMinimumUnits = 10

    var name: String { rawValue }

    /// One sentence for people: what the warning means for the numbers.
    var explanation: String {
        switch self {
        case .fewUnits:
            "a variant has fewer than \(Self.fewUnitsLimit) units: its rate and interval say little"
        case .multipleExposures:
            "at least 1% of units saw more than one variant and were left out: the assignment leaks"
        case .noSingleControl:
            "the campaign has no control variant, or more than one: no lift was computed"
        case .sampleRatioMismatch:
            "the units split differs from the expected shares (SRM p < 0.001): the assignment may be broken"
        }
    }

    static func < (lhs: HealthWarning, rhs: HealthWarning) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }

    /// The warnings that apply to a campaign, sorted byte-wise.
    static func warnings(for campaign: ExposureCampaign) -> [HealthWarning] {
        // `(other campaigns)` sums many experiments: no one assignment to distrust.
        guard campaign.foldedCampaigns == 0 else { return [] }
        var found: [HealthWarning] = []
        if let srm = campaign.srmPValue, srm < sampleRatioMismatchLimit { found.append(.sampleRatioMismatch) }
        // m ≥ 0.01·(m + u) in integers: 100·m ≥ m + u, exact for any count.
        let multiVariant = campaign.multiVariantUnits
        let exposed = multiVariant + campaign.variants.reduce(0) { $0 + $1.units }
        if exposed >= multipleExposuresMinimumUnits && 100 * multiVariant >= exposed { found.append(.multipleExposures) }
        if campaign.variants.contains(where: { $0.units < fewUnitsLimit }) { found.append(.fewUnits) }
        if campaign.variants.count(where: \.control) != 1 { found.append(.noSingleControl) }
        return found.sorted()
    }
}

extension ExposureCampaign {
    /// The health warnings of this campaign, sorted byte-wise by name.
    var warnings: [HealthWarning] { HealthWarning.warnings(for: self) }
}
