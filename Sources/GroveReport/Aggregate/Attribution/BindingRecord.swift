/// What attribution keeps of one binding (all `click_bind` lines with one `clickId`): the winning
/// line and how many lines named each normalized email; later lines with another email are
/// conflicts, and the first binding stands.
///
/// Emails stay in memory only; no output ever shows one.
struct BindingRecord: EarliestLineRecord {
    var winner: ClickBind
    var emails: ValueCounts<Symbol>

    init(_ bind: ClickBind) {
        winner = bind
        emails = ValueCounts(bind.normalizedEmail)
    }

    /// The names the stage records and the state rows know the two parts by.
    var earliest: ClickBind {
        get { winner }
        _modify { yield &winner }
    }

    var valueCounts: ValueCounts<Symbol> {
        get { emails }
        _modify { yield &emails }
    }

    static func value(of bind: ClickBind) -> Symbol { bind.normalizedEmail }

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
