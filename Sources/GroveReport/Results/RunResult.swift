/// Everything a run found: the accounting, both analyses and the time it took.
public struct RunResult: Sendable {
    public var accounting: Accounting
    var attribution: AttributionResult
    public var exposure: ExposureResult
    var wallSeconds: Double
    /// What a `run --state` did: its own lines, inputs and `changes.csv`.
    var stateRun: StateRunReport?

    /// The campaigns each report summed into `(other campaigns)`: `summary.json`'s `folded_campaigns`.
    var foldedCampaigns: FoldedCampaigns {
        var folded = FoldedCampaigns()
        folded.attribution = attribution.foldedCampaigns
        folded.exposure = exposure.foldedCampaigns
        return folded
    }

    /// rejected / lines, 0 for no lines: of this run's own lines, with a state.
    public var rejectRate: Double {
        let (lines, rejected) = stateRun.map { ($0.record.lines, $0.record.rejected) }
            ?? (accounting.lines, accounting.rejectedTotal)
        return lines == 0 ? 0 : Double(rejected) / Double(lines)
    }
}
