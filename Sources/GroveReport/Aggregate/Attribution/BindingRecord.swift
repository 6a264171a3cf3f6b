/// What attribution keeps of one binding (all `click_bind` lines with one `clickId`): the winning
/// line and how many lines named each normalized email.
///
/// Emails stay in memory only; no output ever shows one.
struct BindingRecord: MergeableRecord {
    var winner: ClickBind
    var emails: ValueCounts<Symbol>

    init(_ bind: ClickBind) {
        winner = bind
        emails = ValueCounts(bind.normalizedEmail)
    }

    private var winnerLines: Int { emails.lines(of: winner.normalizedEmail) }

    /// Later lines with the winning email.
    var retries: Int { winnerLines - 1 }

    /// Later lines with another email; the first binding stands.
    var conflicts: Int { emails.total - winnerLines }

    mutating func add(_ bind: ClickBind, symbols: SymbolTable) {
        if Self.precedes(bind, winner, symbols) { winner = bind }
        emails.add(bind.normalizedEmail)
    }

    mutating func merge(_ other: BindingRecord, symbols: SymbolTable) {
        if Self.precedes(other.winner, winner, symbols) { winner = other.winner }
        emails.merge(other.emails)
    }

    func translated(_ translation: SymbolTranslation) -> BindingRecord {
        var copy = self
        copy.winner.clickId = translation[winner.clickId]
        copy.winner.normalizedEmail = translation[winner.normalizedEmail]
        copy.emails = emails.map { translation[$0] }
        return copy
    }

    /// Smallest `ts`, ties by normalized email.
    static func precedes(_ lhs: ClickBind, _ rhs: ClickBind, _ symbols: SymbolTable) -> Bool {
        if lhs.ts != rhs.ts { return lhs.ts < rhs.ts }
        return symbols.precedes(lhs.normalizedEmail, rhs.normalizedEmail)
    }
}
