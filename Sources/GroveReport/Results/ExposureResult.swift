/// Exposure rows and the preview audit, computed from a merged `ExposureState`.
public struct ExposureResult: Sendable, Equatable {
    public var campaigns: [ExposureCampaign]
    /// T of the always-valid interval, for `exposure_daily.csv`.
    var sequentialTuning = SequentialInterval.defaultTuning
    public var audit: PreviewAudit
    /// Campaigns summed into `(other campaigns)` rather than named (`--max-campaigns`).
    var foldedCampaigns = 0
}
