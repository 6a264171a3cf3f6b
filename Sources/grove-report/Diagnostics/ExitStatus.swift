extension ExitStatus {
    /// Which code wins when several failures apply (SPEC section 7): usage, busy, output failure,
    /// input problem, violations. The one place that decides it.
    static let precedence: [ExitStatus] = [.usage, .busy, .outputFailure, .inputProblem, .violations]

    /// The status that wins among `statuses`; success when there is none.
    public static func first(of statuses: [ExitStatus]) -> ExitStatus {
        precedence.first(where: statuses.contains) ?? .success
    }
}
