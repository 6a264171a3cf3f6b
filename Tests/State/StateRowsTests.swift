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
        let rows = try StateRows.rows(of: state, names: names, digest: store.digest).rows
        #expect(rows.count == state.attribution.clicks.count + state.attribution.bindings.count + state.attribution.opens.count
            + state.exposure.installs.count + state.exposure.orders.count)
        var read = PartialState()
        // Rows in any order.
        try StateRows.read(rows.reversed(), into: &read, names: StateNames(store: store))
        #expect(renderedReports(read) == renderedReports(state))
        for scope in PreviewScope.allCases { #expect(renderedReports(read, scope: scope) == renderedReports(state, scope: scope)) }
    }

    @Test func damagedRowsAreRefusedNotTrappedOn() throws {
        let store = try StateStore(path: try temporaryDirectory() + "/state.db", lockWaitSeconds: 0)
        let names = StateNames(store: store)
        let rows = try StateRows.rows(of: try Self.night(), names: names, digest: store.digest).rows
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
