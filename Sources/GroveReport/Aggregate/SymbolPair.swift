/// Two symbols as one key, such as (campaign, install) or (campaign, variant).
struct SymbolPair: TranslatableKey {
    let first: Symbol
    let second: Symbol

    var indexHash: UInt64 { Self.mixed(UInt64(first.raw) << 32 | UInt64(second.raw)) }

    func translated(_ translation: SymbolTranslation) -> SymbolPair {
        SymbolPair(first: translation[first], second: translation[second])
    }
}
