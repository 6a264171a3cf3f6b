import Testing
@testable import GroveGenerator
@testable import GroveReport

/// The state's binary rows (schema 3, docs/STATE.md, Rows): a partial state written as rows and
/// read back gives the same reports, and a damaged row is refused, never trapped on.
@Suite(.serialized)
struct StateRowsTests {
    /// A generated night's per-key records (the totals kinds kept apart, as the state does).
    private static func night() throws -> PartialState {
        var state = partialState(try generatedLines(events: 4_000, seed: 17))
        state.accounting = Accounting()
        state.exposure.counters = .init()
        state.exposure.totals = .init()
        return state
    }

    @Test func rowsReadBackGiveTheSameReports() throws {
        let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
        let names = StateNames(store: store)
        let state = try Self.night()
        let rows = try StateRows.rows(of: state, names: names, digest: store.digest).flatMap(\.rows)
        #expect(rows.count == state.attribution.clicks.count + state.attribution.bindings.count + state.attribution.opens.count
            + state.exposure.installs.count + state.exposure.orders.count)
        var read = PartialState()
        // Rows in any order.
        try StateRows.read(rows.reversed(), into: &read, names: StateNames(store: store))
        #expect(renderedReports(read) == renderedReports(state))
        for scope in PreviewScope.allCases { #expect(renderedReports(read, scope: scope) == renderedReports(state, scope: scope)) }
    }

    /// A night reads every name into memory at its start (so rows decode on another thread,
    /// asking SQLite nothing) unless the state holds more than it keeps; rows read the same
    /// either way, and a number no name has is none.
    @Test func namesReadIntoMemoryReadRowsAsLookupsDo() throws {
        let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
        let state = try Self.night()
        let rows = try StateRows.rows(of: state, names: StateNames(store: store), digest: store.digest).flatMap(\.rows)
        let all = StateNames(store: store)
        try all.loadAll(upTo: 1_000)
        #expect(all.isComplete)
        var read = PartialState()
        try StateRows.read(rows, into: &read, names: all)
        #expect(renderedReports(read) == renderedReports(state))
        #expect(try all.name(number: 1 << 40) == nil)
        let few = StateNames(store: store)
        try few.loadAll(upTo: 2)
        #expect(!few.isComplete)
        #expect(try few.name(number: 1) != nil)
    }

    /// A night's two parts are encoded on two threads when every name is in memory, and again
    /// one after the other when a part meets a name the state lacks: either way the rows, and
    /// the numbers new names get, are those of encoding on one thread.
    @Test func partsEncodedOnTwoThreadsAreTheRowsOfOneThread() throws {
        func store(numbering first: PartialState) throws -> StateStore {
            let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
            _ = try StateRows.rows(of: first, names: StateNames(store: store), digest: store.digest)
            return store
        }
        let first = try Self.night()
        var later = partialState(try generatedLines(events: 4_000, seed: 23))
        later.exposure.counters = .init()
        // Two stores holding the first night's names; the later night brings new ones.
        let (threads, thread) = (try store(numbering: first), try store(numbering: first))
        let namesOfFirst = try #require(try threads.allNames(upTo: 10_000)).count
        for night in [first, later] {
            let inMemory = StateNames(store: threads)
            try inMemory.loadAll(upTo: 1_000)
            #expect(inMemory.isComplete)
            let parts = try StateRows.rows(of: night, names: inMemory, digest: threads.digest)
            let one = try StateRows.rows(of: night, names: StateNames(store: thread), digest: thread.digest)
            #expect(parts.map(\.count) == one.map(\.count))
            #expect(parts.flatMap(\.rows).map(\.key) == one.flatMap(\.rows).map(\.key))
            #expect(parts.flatMap(\.rows).map(\.value) == one.flatMap(\.rows).map(\.value))
        }
        let names = try #require(try threads.allNames(upTo: 10_000))
        #expect(names.count > namesOfFirst, "the later night brings names the first did not")
        #expect(names.map(\.1) == (try thread.allNames(upTo: 10_000))?.map(\.1))
    }

    /// Every text reads back as its exact bytes, whichever form it was kept in, and ids of the
    /// usual shapes are kept at about half their length.
    @Test func textsReadBackExactlyInEveryForm() throws {
        let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
        let names = StateNames(store: store)
        var random = SeededRandom(seed: 7)
        let alphabet = Array("0123456789abcdefABCDEF-_:xz@é".utf8)
        var texts = [
            "", "a", "clk_8e3ae4d4e6efdcfd", "clk_8e3ae4d4e6efdcf", "opn_0000000000000000", "ord_abc", "8e3ae4d4",
            "8e3ae4d", "CLK_8E3AE4D4E6EFDCFD", "32D0F243-D48D-6B8F-6C99-8CAB821246F7", "32d0f243-d48d-6b8f-6c99-8cab821246f7",
            "32D0F243-d48d-6B8F-6C99-8CAB821246F7", "12345678-1234-1234-1234-123456789012", "32D0F243-D48D-6B8F-6C99-8CAB821246F",
            "32D0F243_D48D-6B8F-6C99-8CAB821246F7", "user@example.com", "ctx_95f004be1c5d4c1d",
            // 36 bytes with the four dashes but not a UUID: dashes in place of digits (which
            // pair up again), a dash last, a letter past `f`.
            "32-0F-43-D48D-6B8F-6C99-8CAB821246F7", "32D0F243-D48D-6B8F-6C99-8CAB821246F-", "32D0F243-D48D-6B8F-6C99-8CAB82124GF7",
        ].map { Array($0.utf8) }
        for _ in 0..<2_000 {
            texts.append((0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
        }
        var symbols = SymbolTable()
        let interned = texts.map { symbols.intern($0) }
        var writer = StateRowWriter(symbols: symbols, names: names)
        for symbol in interned { writer.text(symbol) }
        var reader = StateRowReader(symbols: SymbolTable(), names: names)
        reader.load(writer.bytes)
        for text in texts {
            let symbol = try #require(try reader.text())
            #expect(Array(reader.symbols.bytes(symbol)) == text, "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(reader.isAtEnd)
        // Sizes: a prefixed hex id, a UUID, a text kept whole.
        for (text, size) in [
            ("clk_8e3ae4d4e6efdcfd", 14), ("32D0F243-D48D-6B8F-6C99-8CAB821246F7", 17), ("32d0f243-d48d-6b8f-6c99-8cab821246f7", 17),
            ("12345678-1234-1234-1234-123456789012", 17), ("32D0F243-d48d-6B8F-6C99-8CAB821246F7", 38), ("spring-sale", 12),
        ] {
            var one = SymbolTable()
            let symbol = one.intern(Array(text.utf8))
            var single = StateRowWriter(symbols: one, names: names)
            single.text(symbol)
            #expect(single.bytes.count == size, "\(text): \(single.bytes.count) bytes")
        }
    }

    @Test func damagedRowsAreRefusedNotTrappedOn() throws {
        let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
        let names = StateNames(store: store)
        let rows = try StateRows.rows(of: try Self.night(), names: names, digest: store.digest).flatMap(\.rows)
        var random = SeededRandom(seed: 31)
        var refused = 0
        for _ in 0..<5_000 {
            var row = rows[Int.random(in: 0..<rows.count, using: &random)]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: row.value = Array(row.value.prefix(Int.random(in: 0..<max(row.value.count, 1), using: &random)))
            case 1 where !row.value.isEmpty: row.value[Int.random(in: 0..<row.value.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 2 where !row.key.isEmpty: row.key[Int.random(in: 0..<row.key.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            default: row.value += [UInt8.random(in: 0...255, using: &random)]
            }
            var scratch = PartialState()
            do throws(StateError) {
                try StateRows.read([row], into: &scratch, names: names)
            } catch {
                guard case .notAState(_, let reason) = error else { Issue.record("\(error)"); continue }
                #expect(reason.hasPrefix("a stored record is damaged"))
                refused += 1
            }
        }
        // Most damage is seen; a flipped count or instant may still read as a valid record.
        #expect(refused > 2_000)
    }
}
