import Foundation
import Testing
@testable import GroveReport

/// Hand-computed fixtures and properties for SPEC section 10.3: `exposure_daily.csv` and
/// `attribution_daily.csv`.
struct DailyReportTests {
    private func day(_ ts: String) throws -> String {
        let line = ExposureTests.decision("i", "c", "A", ts: ts)
        let state = partialState([line]).joined(scope: .unit)
        let days = try #require(state.joins.variants.records.first?.days.sorted)
        return DayText.of(try #require(days.first?.day))
    }

    @Test func daysAreUTCDatesOfInstantsEvenUnderOffsets() throws {
        #expect(try day("2024-05-01T23:30:00-01:00") == "2024-05-02")
        #expect(try day("2024-05-02T00:30:00+01:00") == "2024-05-01")
        #expect(try day("2024-05-01T23:59:59.999999999Z") == "2024-05-01")
        #expect(try day("2024-05-02T00:00:00Z") == "2024-05-02")
        #expect(try day("1969-12-31T23:59:59.5Z") == "1969-12-31")
        #expect(try day("0001-01-01T00:00:00+23:59") == "0000-12-31")
        #expect(try day("9999-12-31T23:59:59-23:59") == "10000-01-01")
    }

    @Test func talliesAddInPlaceAndDropADayThatSumsToNothing() {
        var tallies = DailyTallies()
        tallies.add(day: 5, SIMD3(1, 2, 0))
        tallies.add(day: -3, SIMD3(0, 0, 1))
        tallies.add(day: 5, SIMD3(1, 0, 1))
        #expect(tallies.sorted.map(\.day) == [-3, 5] && tallies.sorted.last?.counts == SIMD3(2, 2, 1))
        tallies.add(day: 5, SIMD3(-2, -2, -1))
        tallies.add(day: 7, SIMD3())
        #expect(tallies.sorted.map(\.day) == [-3])
        var other = DailyTallies()
        other.add(day: -3, SIMD3(0, 0, 1))
        #expect(tallies == other)
        tallies.add(other.scaled(by: -1))
        #expect(tallies.isEmpty && tallies == DailyTallies())
    }

    private func reports(_ lines: [String], windows: AnalysisWindows = .init(), maxCampaigns: Int = 10_000)
        -> (exposure: ExposureResult, attribution: AttributionResult)
    {
        let joined = partialState(lines).joined(scope: .unit, windows: windows)
        return (joined.exposureResult(configuration: nil, maxCampaigns: maxCampaigns), joined.attributionResult(maxCampaigns: maxCampaigns))
    }

    @Test func exposureDailyRowsAreAsOfTheEndOfEachDayOfAChange() throws {
        let lines = [
            // control: u1 (day 1), u2 (day 3); u1 converts on day 2.
            ExposureTests.decision("u1", "c", "ctl", ts: "2026-03-01T10:00:00Z", control: true),
            ExposureTests.decision("u2", "c", "ctl", ts: "2026-03-03T10:00:00Z", control: true),
            ExposureTests.order("o1", "u1", amount: 10, ts: "2026-03-02T10:00:00Z"),
            // v: u3 (day 1, converts on day 1 and again on day 4: one conversion, on day 1), u4 (day 2).
            ExposureTests.decision("u3", "c", "v", ts: "2026-03-01T08:00:00Z"),
            ExposureTests.decision("u4", "c", "v", ts: "2026-03-02T08:00:00Z"),
            ExposureTests.order("o2", "u3", amount: 5, ts: "2026-03-01T09:00:00Z"),
            ExposureTests.order("o3", "u3", amount: 5, ts: "2026-03-04T09:00:00Z"),
        ]
        let csv = String(decoding: ExposureDailyReport.csv(reports(lines).exposure), as: UTF8.self)
        let rows = csv.split(separator: "\n").map(String.init)
        #expect(rows[0] == ExposureDailyReport.header.joined(separator: ","))
        #expect(rows[1] == "c,ctl,2026-03-01,1,0,0.0,,,")
        #expect(rows[2] == "c,ctl,2026-03-02,1,1,1.0,,,")
        #expect(rows[3] == "c,ctl,2026-03-03,2,1,0.5,,,")
        // Day 1: v 1/1 against ctl 0/1: se = 0, so no interval, but a difference.
        #expect(rows[4] == "c,v,2026-03-01,1,1,1.0,1.0,,")
        // Day 2: v 1/2 against ctl 1/1 (se² = 0.25/2 + 0): the interval of 10.2 from these.
        let interval = SequentialInterval.interval(difference: -0.5, standardError: (0.125).squareRoot(), units: 3, tuning: 5000)
        #expect(rows[5] == "c,v,2026-03-02,2,1,0.5,-0.5,\(interval.low),\(interval.high)")
        #expect(rows.count == 6)
    }

    @Test func theConversionWindowMovesTheDayOfAConversion() throws {
        let lines = [
            ExposureTests.decision("u1", "c", "v", ts: "2026-03-01T23:00:00Z"),
            ExposureTests.order("o1", "u1", amount: 1, ts: "2026-03-02T00:30:00Z"),
            ExposureTests.order("o2", "u1", amount: 1, ts: "2026-03-01T23:30:00Z"),
        ]
        let csv = String(decoding: ExposureDailyReport.csv(reports(lines, windows: AnalysisWindows(conversionHours: 1)).exposure), as: UTF8.self)
        #expect(csv.split(separator: "\n").dropFirst() == ["c,v,2026-03-01,1,1,1.0,,,"])
    }

    @Test func attributionDailyCountsByTheDayOfTheClick() throws {
        let lines = [
            AttributionTests.click("k1", "2026-03-01T23:30:00-01:00", campaign: "s"),
            AttributionTests.click("k2", "2026-03-02T10:00:00Z", campaign: "s"),
            AttributionTests.click("k3", "2026-03-01T10:00:00Z", campaign: "s"),
            AttributionTests.open("o1", "2026-03-05T10:00:00Z", click: "k3"),
            AttributionTests.bind("k2", "2026-03-20T10:00:00Z", "a@x.com"),
            AttributionTests.bind("k3", "2026-03-01T11:00:00Z", "b@x.com"),
        ]
        let unlimited = String(decoding: AttributionDailyReport.csv(reports(lines).attribution), as: UTF8.self)
        #expect(unlimited == "campaign,day,clicks,opens,attributed\ns,2026-03-01,1,1,1\ns,2026-03-02,2,0,1\n")
        let windowed = String(decoding: AttributionDailyReport.csv(reports(lines, windows: AnalysisWindows(bindDays: 7)).attribution), as: UTF8.self)
        #expect(windowed == "campaign,day,clicks,opens,attributed\ns,2026-03-01,1,1,1\ns,2026-03-02,2,0,0\n")
    }

    /// A name as a CSV cell shows it (formula-guarded), unquoted.
    private static func text(_ name: ByteString) -> String {
        String(decoding: CSVTable.cell(.string(name)), as: UTF8.self)
    }

    /// RFC 4180 records of a CSV file, quotes removed.
    private func csvRecords(_ bytes: [UInt8]) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var cell = ""
        var quoted = false
        var characters = String(decoding: bytes, as: UTF8.self).makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" { quoted = false } else { cell.append(character) }
            } else if character == "\"" {
                // A doubled quote inside a quoted cell reopens it after appending one quote.
                if !cell.isEmpty { cell.append("\"") }
                quoted = true
            } else if character == "," {
                record.append(cell)
                cell = ""
            } else if character == "\n" {
                record.append(cell)
                records.append(record)
                (record, cell) = ([], "")
            } else {
                cell.append(character)
            }
        }
        return records
    }

    /// The last row of each variant equals its `exposure.csv` row; attribution's days sum to
    /// `attribution.csv` — on generated logs, with and without windows, folded or not.
    @Test(arguments: [(AnalysisWindows(), 10_000), (StageTests.windows, 10_000), (AnalysisWindows(), 2), (StageTests.windows, 3)])
    func dailyFilesAddUpToTheReports(windows: AnalysisWindows, maxCampaigns: Int) throws {
        let (exposure, attribution) = reports(try PropertyTests.lines, windows: windows, maxCampaigns: maxCampaigns)
        var lastRows: [String: (Int, Int)] = [:]
        for cells in csvRecords(ExposureDailyReport.csv(exposure)).dropFirst() {
            lastRows[cells[0] + "," + cells[1]] = (try #require(Int(cells[3])), try #require(Int(cells[4])))
        }
        let expected = exposure.campaigns.flatMap { campaign in
            campaign.variants.filter { $0.units > 0 }.map { variant in
                (Self.text(campaign.campaign) + "," + Self.text(variant.variant), (variant.units, variant.convertedUnits))
            }
        }
        #expect(!expected.isEmpty)
        #expect(lastRows.count == expected.count)
        for (key, counts) in expected { #expect(lastRows[key].map { $0 == counts } == true, "\(key)") }

        var sums: [String: [Int]] = [:]
        for cells in csvRecords(AttributionDailyReport.csv(attribution)).dropFirst() {
            let counts = cells[2...4].map { Int($0) ?? -1 }
            sums[cells[0]] = zip(sums[cells[0]] ?? [0, 0, 0], counts).map(+)
        }
        #expect(sums.count == attribution.campaigns.count)
        for (campaign, counts) in attribution.campaigns {
            #expect(sums[Self.text(campaign)] == [counts.clicks, counts.opens, counts.attributed], "\(campaign)")
        }
    }
}
