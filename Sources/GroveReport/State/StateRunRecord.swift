/// What one `run --state` did: `summary.json`'s `"run"` object and the `runs`/`inputs` rows.
struct StateRunRecord: Sendable, Equatable {
    enum InputStatus: String, Sendable {
        /// Read and merged into the state.
        case ingested
        /// The state already held its content (by SHA-256): not read again.
        case skipped
    }

    struct Input: Sendable, Equatable {
        var file: String
        var sha256: String
        var status: InputStatus
        /// Lines read in this run (0 when skipped).
        var lines: Int
        var size: Int
    }

    var id: Int
    /// RFC 3339 UTC start time (only in the state, never in a report).
    var started: String
    /// The options that shape reports, as JSON text.
    var options: String
    var inputs: [Input]
    /// Lines and rejected lines read by this run alone.
    var lines: Int
    var rejected: Int
    /// Stored record rows this run read: what the night cost in the state (only in the state).
    var recordsRead = 0

    /// `summary.json`'s `"run"` member.
    var json: JSONOutput {
        .object([
            JSONOutput.Member("id", .integer(id)),
            JSONOutput.Member("inputs", .array(inputs.map { input in
                .object([
                    JSONOutput.Member("file", .text(input.file)),
                    JSONOutput.Member("sha256", .text(input.sha256)),
                    JSONOutput.Member("status", .text(input.status.rawValue)),
                    JSONOutput.Member("lines", .integer(input.lines)),
                ])
            })),
            JSONOutput.Member("lines", .integer(lines)),
            JSONOutput.Member("rejected", .integer(rejected)),
        ])
    }
}
