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

    /// Rewriting asks about exactly the strings that hold the byte (at their start, middle or
    /// end, once or many times, beside empty strings), gives the rewritten ones their new
    /// symbols and leaves every other symbol where it was.
    @Test func rewritingAsksOnlyStringsHoldingTheByte() {
        var table = SymbolTable()
        var words = (0..<3000).map { "id-\($0)" } + ["", "@", "@start", "end@", "mid@dle", "a@b@c", "", "x"]
        words += (0..<200).map { "user\($0)@example.com" }
        let symbols = words.map { table.intern(ByteString($0)) }
        var asked: [String] = []
        let translation = table.rewriting(stringsHolding: UInt8(ascii: "@")) { bytes in
            let text = String(decoding: Array(bytes), as: UTF8.self)
            asked.append(text)
            return text.hasPrefix("user") ? Array("sealed-\(text.dropFirst(4).prefix { $0 != "@" })".utf8) : nil
        }
        let holding = words.filter { $0.contains("@") }
        #expect(asked.sorted() == holding.sorted())
        let map = try! #require(translation)
        for (word, symbol) in zip(words, symbols) {
            let expected = word.hasPrefix("user") ? "sealed-\(word.dropFirst(4).prefix { $0 != "@" })" : word
            #expect(table.string(map[symbol]) == ByteString(expected))
            if !word.hasPrefix("user") { #expect(map[symbol] == symbol) }
        }
        var plain = SymbolTable()
        _ = (0..<100).map { plain.intern(ByteString("id-\($0)")) }
        #expect(plain.rewriting(stringsHolding: UInt8(ascii: "@")) { _ in Issue.record("asked"); return nil } == nil)
    }

    @Test func theHashReadsOnlyTheBytesGiven() {
        // Short strings are loaded without reading past their end: equal prefixes of longer
        // buffers must hash like the standalone strings.
        let long = Array("abcdefghijklmnop".utf8)
        for length in 0...long.count {
            let standalone = Array(long.prefix(length))
            let fromPrefix = long.withUnsafeBufferPointer { SymbolTable.hash(UnsafeBufferPointer(rebasing: $0.prefix(length)), key: SipHash.Key(k0: 7, k1: 7)) }
            #expect(standalone.withUnsafeBufferPointer { SymbolTable.hash($0, key: SipHash.Key(k0: 7, k1: 7)) } == fromPrefix)
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

/// The in-memory hash of ids must be keyed: ids come from client apps, and a pair of ids that
/// collide whatever the seed would let a sender flood one slot of the symbol tables.
struct SymbolHashTests {
    /// The pair the multiply-and-rotate hash collided on under every seed: bit 63 of the first
    /// eight-byte word flipped, and bit 28 of the second.
    @Test func craftedPairsOfTheOldHashDoNotCollide() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let key = SipHash.Key(k0: .random(in: 0...UInt64.max, using: &generator), k1: .random(in: 0...UInt64.max, using: &generator))
            let first = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var second = first
            second[7] ^= 0x80
            second[11] ^= 0x10
            let hashes = [first, second].map { bytes in bytes.withUnsafeBufferPointer { SymbolTable.hash($0, key: key) } }
            #expect(hashes[0] != hashes[1])
        }
    }

    @Test func equalBytesHashEquallyAndTheKeyChangesTheHash() {
        let bytes: [UInt8] = Array("clk_9b92667032c59511".utf8)
        let hash = { (k0: UInt64) in bytes.withUnsafeBufferPointer { SymbolTable.hash($0, key: SipHash.Key(k0: k0, k1: 7)) } }
        #expect(hash(1) == hash(1))
        #expect(hash(1) != hash(2))
    }

    /// The written-out SipHash is the reference function: SipHash-2-4's test vectors (key 00…0f,
    /// messages 00…0n) and OpenSSL's SipHash on random inputs of every length up to 64 bytes.
    @Test func sipHashMatchesTheReferenceAndOpenSSL() {
        let key = SipHash.Key(k0: 0x0706_0504_0302_0100, k1: 0x0F0E_0D0C_0B0A_0908)
        let vectors: [Int: UInt64] = [0: 0x726F_DB47_DD0E_0E31, 1: 0x74F8_39C5_93DC_67FD, 8: 0x93F5_F579_9A93_2462, 15: 0xA129_CA61_49BE_45E5]
        for (length, expected) in vectors {
            let message = (0..<length).map { UInt8($0) }
            #expect(message.withUnsafeBufferPointer { SipHash.hash($0, key: key, compression: 2, finalization: 4) } == expected)
        }
        let openSSL = StateKeyDigest(key: Array(0..<16))
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(message.withUnsafeBufferPointer { SipHash.hash($0, key: key, compression: 2, finalization: 4) }
                == message.withUnsafeBufferPointer(openSSL.sipHash))
        }
    }
}
