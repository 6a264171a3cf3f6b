/// Renders `summary.json` (docs/OUTPUTS.md): the accounting of every line, input errors, bytes and time.
enum SummaryReport {
    /// `folded` the campaigns the analyses summed into `(other campaigns)`; `run` is what a
    /// `run --state` did in this run alone; `outputs` the name and SHA-256 of every other file of
    /// the run, sorted by name.
    static func json(
        _ accounting: Accounting, wallSeconds: Double, folded: FoldedCampaigns = FoldedCampaigns(), run: StateRunRecord? = nil,
        outputs: [(name: String, sha256: String)] = []
    ) -> [UInt8] {
        let rejected = accounting.rejected.sorted { $0.key.text < $1.key.text }.map { reason, count in
            JSONOutput.Member(key: reason.text, .integer(count))
        }
        let inputErrors = accounting.inputErrors.map { error in
            JSONOutput.object([
                JSONOutput.Member("file", .text(error.file)),
                JSONOutput.Member("error", .text(error.error)),
                JSONOutput.Member("offset", .integer(error.offset)),
            ])
        }
        return JSONOutput.object([
            JSONOutput.Member("lines", .integer(accounting.lines)),
            JSONOutput.Member("accepted", .object(EventType.allCases.map {
                JSONOutput.Member($0.name, .integer(accounting.accepted($0)))
            })),
            JSONOutput.Member("ignored", .object(IgnoreReason.allCases.map {
                JSONOutput.Member($0.name, .integer(accounting.ignored($0)))
            })),
            JSONOutput.Member("rejected", .object(rejected)),
            JSONOutput.Member("input_errors", .array(inputErrors)),
            JSONOutput.Member("files", .integer(accounting.files)),
            JSONOutput.Member("bytes_read", .integer(accounting.bytes.read)),
            JSONOutput.Member("bytes_decompressed", .integer(accounting.bytes.decompressed)),
            JSONOutput.Member("wall_seconds", .decimal(wallSeconds)),
            JSONOutput.Member("folded_campaigns", .object([
                JSONOutput.Member("attribution", .integer(folded.attribution)),
                JSONOutput.Member("exposure", .integer(folded.exposure)),
            ])),
            JSONOutput.Member("outputs", .object(outputs.map { JSONOutput.Member($0.name, .text($0.sha256)) })),
        ] + (run.map { [JSONOutput.Member("run", $0.json)] } ?? [])).rendered()
    }
}
