/// The health warnings of `exposure.json` for people, printed by `validate` after the audit.
/// They change no exit status: they say which numbers to read with care.
public enum HealthWarningsText {
    /// One line per campaign and warning, or a line saying there are none.
    public static func text(_ campaigns: [ExposureCampaign]) -> String {
        var lines: [String] = []
        for campaign in campaigns {
            for warning in campaign.warnings {
                lines.append("  warning: \(campaign.campaign): \(warning.name): \(detail(warning, campaign))")
            }
        }
        guard !lines.isEmpty else { return "Health warnings: none.\n" }
        let flagged = campaigns.count { !$0.warnings.isEmpty }
        let named = campaigns.count { $0.foldedCampaigns == 0 }
        let header = "Health warnings: \(lines.count) in \(flagged) of \(named) campaigns (they change no number and no exit status)"
        return ([header] + lines).joined(separator: "\n") + "\n"
    }

    /// The explanation with the campaign's own figures behind it.
    static func detail(_ warning: HealthWarning, _ campaign: ExposureCampaign) -> String {
        switch warning {
        case .sampleRatioMismatch:
            "\(warning.explanation) (srm_p_value \(campaign.srmPValue.map(DecimalFormat.shortest) ?? "null"))"
        case .multipleExposures:
            "\(warning.explanation) (\(campaign.multiVariantUnits) multi-variant units, \(campaign.variants.reduce(0) { $0 + $1.units }) units)"
        case .fewUnits:
            "\(warning.explanation) (" + campaign.variants.filter { $0.units < HealthWarning.fewUnitsLimit }
                .map { "\($0.variant) \($0.units)" }.joined(separator: ", ") + ")"
        case .noSingleControl:
            "\(warning.explanation) (\(campaign.variants.count(where: \.control)) control variants)"
        }
    }
}
