import Testing
@testable import GroveReport

/// `EventLookahead` adds each accepted event one event late, in arrival order: the state it builds
/// is the state of adding every event at once, and `flush` leaves nothing waiting.
struct EventLookaheadTests {
    private static func click(_ clickId: String) -> String {
        #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"\#(clickId)","appKey":"k","slug":"s","route":"app"}"#
    }

    @Test func theLastEventWaitsUntilFlush() throws {
        var state = PartialState()
        var classifier = LineClassifier()
        var lookahead = EventLookahead()
        for (count, clickId) in ["c1", "c2", "c3"].enumerated() {
            let outcome = Array(Self.click(clickId).utf8).withUnsafeBufferPointer { classifier.classify($0, &state.symbols) }
            guard case .accepted(let event) = outcome else { throw LookaheadFailure.rejected(clickId) }
            lookahead.add(event, to: &state)
            #expect(state.attribution.clicks.count == count)
        }
        lookahead.flush(into: &state)
        #expect(state.attribution.clicks.keys.map { String(decoding: state.symbols.bytes($0), as: UTF8.self) } == ["c1", "c2", "c3"])
        lookahead.flush(into: &state)
        #expect(state.attribution.clicks.count == 3)
    }

    @Test func aStateBuiltOneEventLateReportsTheSameBytes() throws {
        let lines = try generatedLines(events: 3_000, seed: 11)
        var late = PartialState()
        var classifier = LineClassifier()
        var lookahead = EventLookahead()
        for line in lines {
            let outcome = Array(line.utf8).withUnsafeBufferPointer { classifier.classify($0, &late.symbols) }
            late.accounting.count(outcome)
            if case .accepted(let event) = outcome { lookahead.add(event, to: &late) }
        }
        lookahead.flush(into: &late)
        let direct = partialState(lines)
        #expect(late.accounting.acceptedTotal == direct.accounting.acceptedTotal)
        #expect(renderedReports(late) == renderedReports(direct))
    }

    private enum LookaheadFailure: Error {
        case rejected(String)
    }
}
