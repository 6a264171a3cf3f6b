/// What attribution keeps of one binding (all `click_bind` lines with one `clickId`): the winning
/// line and how many lines named each normalized email.
///
/// Emails stay in memory only; no output ever shows one.
struct BindingRecord: MergeableRecord, Sendable, Equatable {
    var winner: ClickBind
    var emails: ValueCounts<ByteString>

    init(_ bind: ClickBind) {
        winner = bind
        emails = ValueCounts(bind.normalizedEmail)
    }

    private var winnerLines: Int { emails.lines(of: winner.normalizedEmail) }

    /// Later lines with the winning email.
    var retries: Int { winnerLines - 1 }

    /// Later lines with another email; the first binding stands.
    var conflicts: Int { emails.total - winnerLines }

    mutating func merge(_ other: BindingRecord) {
        if Self.precedes(other.winner, winner) { winner = other.winner }
        emails.merge(other.emails)
    }

    /// Smallest `ts`, ties by normalized email.
    static func precedes(_ lhs: ClickBind, _ rhs: ClickBind) -> Bool {
        (lhs.ts, lhs.normalizedEmail) < (rhs.ts, rhs.normalizedEmail)
    }
}
