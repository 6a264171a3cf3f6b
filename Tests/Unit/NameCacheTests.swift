import Testing
@testable import GroveReport

/// Names and low-cardinality words are found among the last ones interned before they are hashed
/// and probed for: the shortcut must give exactly the symbol interning would, for names that share
/// a prefix, a suffix or a length, for names longer than the cache keeps, and after other names
/// have taken their slots.
struct NameCacheTests {
    /// Names that differ only in length, or in the middle, or past the sixteen bytes kept.
    static let names: [String] = [
        "a", "ab", "ab\u{0}", "checkout-test", "checkout-tesu", "checkout-best", "abcdefgh", "abcdefghi",
        "abcdefgh-abcdefgh", "abcdefgh-xbcdefgh", "0123456789abcdef", "0123456789abcdeF", "",
        "spring-sale", "sale user@example.com", "user@example.com",
    ] + (0..<300).map { "campaign-\($0)" }

    @Test func cachedNamesGetTheSymbolsInterningGives() {
        var table = SymbolTable()
        var reference = SymbolTable()
        var generator = SystemRandomNumberGenerator()
        // Several rounds in random order, so names keep replacing one another in their slots.
        for _ in 0..<5 {
            for name in Self.names.shuffled(using: &generator) {
                let bytes = Array(name.utf8)
                let viaName = bytes.withUnsafeBufferPointer { table.internName($0) }
                let viaWord = bytes.withUnsafeBufferPointer { table.internWord($0) }
                #expect(table.string(viaName) == EmailMask.apply(ByteString(name)), "\(name)")
                #expect(table.string(viaWord) == ByteString(name), "\(name)")
                _ = reference.intern(EmailMask.apply(ByteString(name)))
            }
        }
        #expect(table.count == reference.count + 2, "two names hold an email: masked and raw are both kept")
    }

    @Test func theCacheKeepsNamesOfAtMostSixteenBytes() {
        var cache = NameCache()
        let short = Array("0123456789abcdef".utf8)
        let long = Array("0123456789abcdefg".utf8)
        short.withUnsafeBufferPointer { cache.remember($0, as: Symbol(raw: 7)) }
        long.withUnsafeBufferPointer { cache.remember($0, as: Symbol(raw: 8)) }
        #expect(short.withUnsafeBufferPointer { cache.symbol(for: $0) } == Symbol(raw: 7))
        #expect(long.withUnsafeBufferPointer { cache.symbol(for: $0) } == nil)
        #expect(Array("0123456789abcdeF".utf8).withUnsafeBufferPointer { cache.symbol(for: $0) } == nil)
        #expect(Array("0123456789abcde".utf8).withUnsafeBufferPointer { cache.symbol(for: $0) } == nil)
    }
}
