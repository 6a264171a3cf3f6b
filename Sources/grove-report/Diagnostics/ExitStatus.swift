/// The process exit codes (README, "Exit codes"); `DiagnosticsEngine` alone chooses one.
enum ExitStatus: Int32, Sendable {
    case success = 0
    /// Input errors, too many rejected lines, or a failed leak check.
    case inputProblem = 1
    case usage = 2
    /// `validate` found audit violations.
    case violations = 3
    /// The outputs could not be written (full disk, read-only or vanished directory): `EX_IOERR`.
    case outputFailure = 74
    /// The output directory or the state is in use by another run: `EX_TEMPFAIL`, try again later.
    case busy = 75
}

extension ExitStatus {
    /// Which code wins when several failures apply: usage, busy, output failure, input problem,
    /// violations. The one place that decides it.
    static let precedence: [ExitStatus] = [.usage, .busy, .outputFailure, .inputProblem, .violations]

    /// The status that wins among `statuses`; success when there is none.
    static func first(of statuses: [ExitStatus]) -> ExitStatus {
        precedence.first(where: statuses.contains) ?? .success
    }
}
