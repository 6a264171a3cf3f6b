/// Writes the report files of a run: the analysis reports first, then `rejects.ndjson`, then
/// `publish` renames them into place with `summary.json` last. `run`, `run --state` and `render`
/// all write through `writeAll`, so the order (and what a crash between renames leaves) is one.
enum ReportWriter {
    /// The whole set: the analysis reports (but for a `--state` run that changed nothing, which
    /// writes only its accounting and rejects), `rejects.ndjson` from `rejects`, and `summary.json`.
    static func writeAll(_ result: RunResult, rejects: RejectsContent, to output: OutputDirectory) throws(OutputError) {
        if result.stateRun.map({ $0.changes != nil }) ?? true { try write(result, to: output) }
        try rejects.write(into: output)
        try publish(result, to: output)
    }

    private static func write(_ result: RunResult, to output: OutputDirectory) throws(OutputError) {
        try output.write(AttributionReport.csv(result.attribution), to: "attribution.csv")
        try output.write(AttributionReport.json(result.attribution), to: "attribution.json")
        try output.write(ExposureReport.csv(result.exposure.campaigns), to: "exposure.csv")
        try output.write(ExposureReport.json(result.exposure.campaigns), to: "exposure.json")
        try output.write(ExposureDailyReport.csv(result.exposure), to: ExposureDailyReport.fileName)
        try output.write(AttributionDailyReport.csv(result.attribution), to: AttributionDailyReport.fileName)
        try output.write(PreviewAuditReport.json(result.exposure.audit), to: "preview_audit.json")
        try output.write(ReportPage.html(result), to: "report.html")
        if let changes = result.stateRun?.changes { try output.write(changes, to: "changes.csv") }
    }

    /// Renames every written file into place and `summary.json`, listing them, last.
    private static func publish(_ result: RunResult, to output: OutputDirectory) throws(OutputError) {
        try output.publish { outputs in
            SummaryReport.json(
                result.accounting, wallSeconds: result.wallSeconds, folded: result.foldedCampaigns, run: result.stateRun?.record,
                outputs: outputs)
        }
    }
}
