import Testing
@testable import GroveReport

struct SymbolTableTests {
    @Test func equalBytesGetEqualSymbolsAndDistinctBytesDistinctOnes() {
        var table = SymbolTable()
        let words = (0..<5000).map { "id-\($0)" } + ["", "é", "e\u{0301}", String(repeating: "x", count: 300)]
        let symbols = words.map { table.intern(ByteString($0)) }
        #expect(Set(symbols).count == words.count)
        #expect(words.map { table.intern(ByteString($0)) } == symbols)
        #expect(table.count == words.count)
        for (word, symbol) in zip(words, symbols) { #expect(table.string(symbol) == ByteString(word)) }
    }

    @Test func orderIsByteWiseWithAbsentFirst() {
        var table = SymbolTable()
        let z = table.intern(ByteString("Z"))
        let a = table.intern(ByteString("a"))
        let ab = table.intern(ByteString("ab"))
        #expect(table.precedes(z, a) && table.precedes(a, ab) && !table.precedes(ab, a) && !table.precedes(a, a))
        #expect(table.precedes(nil, z) && !table.precedes(z, nil) && !table.precedes(Symbol?.none, nil))
    }

    @Test func translationMapsSymbolsByTheirBytes() {
        var first = SymbolTable()
        var second = SymbolTable()
        let shared = second.intern(ByteString("shared"))
        let symbols = ["x", "shared", "y"].map { first.intern(ByteString($0)) }
        let translation = first.translation(into: &second, threads: 2)
        #expect(translation[symbols[1]] == shared)
        #expect(second.string(translation[symbols[0]]) == ByteString("x"))
        #expect(second.string(translation[symbols[2]]) == ByteString("y"))
    }

    @Test func tablesOfOneProcessMergeShardByShardOnEveryThread() {
        // The tables share the process's seed, so the translation runs shard by shard in parallel.
        var first = SymbolTable()
        var second = SymbolTable()
        let shared = (0..<3000).map { "shared-\($0)" }
        let sharedInSecond = shared.map { second.intern(ByteString($0)) }
        let words = (0..<5000).map { "first-\($0)" } + shared + [""]
        let symbols = words.map { first.intern(ByteString($0)) }
        let translation = first.translation(into: &second, threads: 3)
        #expect(second.count == 8001)
        for (word, symbol) in zip(words, symbols) { #expect(second.string(translation[symbol]) == ByteString(word)) }
        #expect(shared.indices.map { translation[symbols[5000 + $0]] } == sharedInSecond)
        #expect(Set(symbols.map { translation[$0] }).count == words.count)
    }

    @Test func theHashReadsOnlyTheBytesGiven() {
        // Short strings are loaded without reading past their end: equal prefixes of longer
        // buffers must hash like the standalone strings.
        let long = Array("abcdefghijklmnop".utf8)
        for length in 0...long.count {
            let standalone = Array(long.prefix(length))
            let fromPrefix = long.withUnsafeBufferPointer { SymbolTable.hash(UnsafeBufferPointer(rebasing: $0.prefix(length)), seed: 7) }
            #expect(standalone.withUnsafeBufferPointer { SymbolTable.hash($0, seed: 7) } == fromPrefix)
        }
    }
}

struct FieldNameTests {
    @Test func everyKeyResolvesToItsNameAndNothingElseDoes() {
        for name in FieldName.allCases {
            let key = Array(name.key.description.utf8)
            #expect(key.withUnsafeBufferPointer { FieldName.resolve($0) } == name)
        }
        for other in ["", "t", "Type", "types", "utm_campaigns", "installid", "verifiedEmail2", "utm_sourcex", "opened"] {
            #expect(Array(other.utf8).withUnsafeBufferPointer { FieldName.resolve($0) } == nil, "\(other)")
        }
    }
}

struct SymbolLookupTests {
    @Test func lookupFindsInternedStringsWithoutAddingOthers() {
        var table = SymbolTable()
        let known = table.intern(ByteString("known"))
        #expect(table.lookup(ByteString("known")) == known)
        #expect(table.lookup(ByteString("unknown")) == nil)
        #expect(table.count == 1)
    }
}
