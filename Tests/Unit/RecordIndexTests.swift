import Testing
@testable import GroveReport

/// The indexes of `KeyedRecords`: every key finds its own record, in arrival order, whatever the
/// keys' hashes share.
struct RecordIndexTests {
    /// A count per key.
    struct Count: MergeableRecord, Equatable {
        var value: Int

        mutating func merge(_ other: Count, symbols: SymbolTable) { value += other.value }

        func translated(_ translation: SymbolTranslation) -> Count { self }
    }

    /// Keys whose hashes are all equal: only the comparison of keys tells them apart.
    struct CollidingKey: TranslatableKey {
        var number: Int

        var indexHash: UInt64 { 0xDEAD_BEEF_0000_0000 }

        func translated(_ translation: SymbolTranslation) -> CollidingKey { self }
    }

    @Test func keysOfOneHashAreToldApartByTheKeyItself() {
        var records = KeyedRecords<HashedIndex<CollidingKey>, Count>()
        for round in 1...2 {
            for number in 0..<100 { records.modify(CollidingKey(number: number), default: { Count(value: 0) }) { $0.value += round } }
        }
        #expect(records.keys.map(\.number) == Array(0..<100))
        #expect(records.records.allSatisfy { $0 == Count(value: 3) })
        #expect(records[CollidingKey(number: 100)] == nil)
    }

    @Test func pairsAndSymbolsFindTheirRecordsAfterTheTableGrows() {
        let pairs = (0..<50_000).map { SymbolPair(first: Symbol(raw: UInt32($0 % 7)), second: Symbol(raw: UInt32($0))) }
        var byPair = PairKeyedRecords<Count>()
        for (value, pair) in pairs.enumerated() { byPair.append(pair, Count(value: value)) }
        #expect(pairs.indices.allSatisfy { byPair[pairs[$0]] == Count(value: $0) })
        #expect(byPair[SymbolPair(first: Symbol(raw: 1), second: Symbol(raw: 0))] == nil)

        let symbols = [UInt32.max, 0, 1, UInt32.max - 1].map(Symbol.init(raw:)) + (2..<20_000).map { Symbol(raw: UInt32($0)) }
        var bySymbol = SymbolKeyedRecords<Count>()
        for (value, symbol) in symbols.enumerated() { bySymbol.append(symbol, Count(value: value)) }
        #expect(symbols.indices.allSatisfy { bySymbol[symbols[$0]] == Count(value: $0) })
        #expect(Array(bySymbol.keys) == symbols)
    }

    /// Keys the store holds keep their place and fold the other store's record in; the other
    /// store's new keys follow in its order, through the translation, and are found afterwards.
    @Test func aMergeFoldsSharedKeysInPlaceAndAppendsNewOnesInTheirOrder() {
        var merged = SymbolKeyedRecords<Count>()
        for key in 0..<1_000 { merged.append(Symbol(raw: UInt32(key)), Count(value: key)) }
        var other = SymbolKeyedRecords<Count>()
        for key in 0..<1_000 { other.append(Symbol(raw: UInt32(key)), Count(value: 10_000 + key)) }
        // The other store's key k is the merged store's 1499 - k: keys 500..<1000 are shared.
        let translation = SymbolTranslation(map: (0..<1_000).map { Symbol(raw: UInt32(1_499 - $0)) })
        merged.merge(other, translation, symbols: SymbolTable())

        #expect(merged.keys.map(\.raw) == Array(0..<1_000) + Array((1_000..<1_500).reversed()))
        let expected = (0..<1_500).map { key in
            switch key {
            case ..<500: key
            case ..<1_000: key + 10_000 + (1_499 - key)
            default: 10_000 + (1_499 - key)
            }
        }
        #expect((0..<1_500).allSatisfy { merged[Symbol(raw: UInt32($0))] == Count(value: expected[$0]) })
        #expect(merged[Symbol(raw: 1_500)] == nil)
    }
}
