import Testing
@testable import GroveReport

/// Hand-computed fixtures for SPEC section 10.1: `--conversion-window` and `--bind-window`,
/// inclusive at both ends at nanosecond precision.
struct WindowTests {
    private func exposure(_ lines: [String], _ windows: AnalysisWindows) -> ExposureRow? {
        partialState(lines).joined(scope: .unit, windows: windows).exposureResult(configuration: nil)
            .campaigns.first?.variants.first { $0.variant == ByteString("A") }
    }

    private func attribution(_ lines: [String], _ windows: AnalysisWindows) -> AttributionResult {
        partialState(lines).joined(scope: .unit, windows: windows).attributionResult()
    }

    /// i1 first exposed at 10:00:00.5; its orders at exactly 2 h later and 1 ns after that.
    private let exposureLines = [
        ExposureTests.decision("i1", "c", "A", ts: "2026-03-01T10:00:00.5Z"),
        ExposureTests.decision("i2", "c", "A", ts: "2026-03-01T10:00:00Z"),
        ExposureTests.order("o1", "i1", amount: 100, ts: "2026-03-01T12:00:00.5Z"),
        ExposureTests.order("o2", "i1", amount: 40, ts: "2026-03-01T12:00:00.500000001Z"),
        ExposureTests.order("o3", "i2", amount: 7, ts: "2026-03-01T12:00:00.500000001Z"),
        // Before the first exposure: never.
        ExposureTests.order("o4", "i2", amount: 9, ts: "2026-03-01T09:59:59.999999999Z"),
    ]

    @Test func anOrderExactlyHoursAfterTheFirstExposureCountsAndOneNanosecondLaterDoesNot() throws {
        let windowed = try #require(exposure(exposureLines, AnalysisWindows(conversionHours: 2)))
        #expect(windowed.convertedUnits == 1 && windowed.orders == 1 && windowed.revenueMinor == 100)
        let unlimited = try #require(exposure(exposureLines, AnalysisWindows()))
        #expect(unlimited.convertedUnits == 2 && unlimited.orders == 3 && unlimited.revenueMinor == 147)
        // A window wide enough for all of them is the same as none.
        #expect(exposure(exposureLines, AnalysisWindows(conversionHours: 3)) == unlimited)
    }

    @Test func theConversionWindowOnAnOffsetTimestampComparesInstants() throws {
        let lines = [
            ExposureTests.decision("i1", "c", "A", ts: "2026-03-01T10:00:00+02:00"),
            ExposureTests.order("o1", "i1", amount: 5, ts: "2026-03-01T09:00:00Z"),
        ]
        #expect(try #require(exposure(lines, AnalysisWindows(conversionHours: 1))).convertedUnits == 1)
    }

    private let bindLines = [
        AttributionTests.click("k1", "2026-03-01T10:00:00.25Z", campaign: "spring"),
        // Exactly one day later: inside a one-day window.
        AttributionTests.bind("k1", "2026-03-02T10:00:00.25Z", "a@x.com"),
        AttributionTests.click("k2", "2026-03-01T10:00:00.25Z", campaign: "spring"),
        // One nanosecond after the day: outside; its retry and conflict still count.
        AttributionTests.bind("k2", "2026-03-02T10:00:00.250000001Z", "b@x.com"),
        AttributionTests.bind("k2", "2026-03-02T11:00:00Z", "b@x.com"),
        AttributionTests.bind("k2", "2026-03-02T12:00:00Z", "c@x.com"),
        AttributionTests.click("k3", "2026-03-01T10:00:00.25Z", campaign: "spring"),
        // One nanosecond before its click: outside.
        AttributionTests.bind("k3", "2026-03-01T10:00:00.249999999Z", "d@x.com"),
        // An orphan binding is an orphan, not outside any window.
        AttributionTests.bind("k9", "2026-03-01T10:00:00Z", "e@x.com"),
    ]

    @Test func aBindingCountsUpToExactlyDaysAfterItsClickAndNotBeforeIt() throws {
        let windowed = attribution(bindLines, AnalysisWindows(bindDays: 1))
        let spring = try #require(windowed.campaigns.first { $0.campaign == ByteString("spring") }?.counts)
        #expect(spring.clicks == 3 && spring.attributed == 1)
        #expect(spring.bindRetries == 1 && spring.bindConflicts == 1)
        #expect(windowed.bindsOutsideWindow == 2 && windowed.orphanBinds == 1)
        let unlimited = attribution(bindLines, AnalysisWindows())
        #expect(unlimited.totals.attributed == 3 && unlimited.bindsOutsideWindow == 0)
        let json = String(decoding: AttributionReport.json(unlimited), as: UTF8.self)
        #expect(json.contains(#""binds_outside_window": 0"#))
    }
}
