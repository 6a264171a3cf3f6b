import Foundation
import Testing
@testable import GroveReport

/// `report.html` in a real browser (Debian's headless chromium, installed by `.ci/install-deps`):
/// it renders, holds every campaign name as text, turns hostile names into text only, loads
/// nothing from elsewhere, and a page of a thousand campaigns still renders in time.
@Suite(.serialized)
struct BrowserTests {
    /// Generous for a loaded 2-core CI machine; a healthy render takes a few seconds.
    static let browserTimeout: TimeInterval = 150

    /// The elements the page is made of: anything else in the DOM came from log text.
    static let pageElements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "nav", "a", "main",
        "section", "div", "b", "span", "strong", "code", "table", "caption", "thead", "tbody", "tr", "th", "td",
        "details", "summary", "wbr", "svg", "g", "rect", "line", "circle", "text", "polyline", "polygon",
    ]

    /// Runs `grove-report run` over `arguments` into a fresh directory and returns its report.html path.
    static func runReport(_ arguments: [String], in directory: String = packageRoot) throws -> String {
        let out = try temporaryDirectory("report")
        let result = try execute(["run"] + arguments + ["--out", out], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        return out + "/report.html"
    }

    /// The campaign names of a run's JSON reports (attribution, exposure and audit).
    static func campaignNames(_ directory: String) throws -> Set<String> {
        var names: Set<String> = []
        for report in ["attribution.json", "exposure.json", "preview_audit.json"] {
            let object = try JSONSerialization.jsonObject(with: Data(readFile(directory + "/" + report))) as? [String: Any]
            for campaign in object?["campaigns"] as? [[String: Any]] ?? [] {
                names.insert(try #require(campaign["campaign"] as? String))
            }
        }
        return names
    }

    /// Tag names of every element in a serialized DOM.
    static func elementNames(_ dom: String) -> Set<String> {
        let expression = try! NSRegularExpression(pattern: "<([A-Za-z][A-Za-z0-9-]*)")
        return Set(expression.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)).map {
            String(dom[Range($0.range(at: 1), in: dom)!]).lowercased()
        })
    }

    @Test func theSamplePageRendersWithEveryCampaignNameAsText() throws {
        let chromium = try Chromium.onPath()
        let page = try Self.runReport([])
        let directory = (page as NSString).deletingLastPathComponent

        let png = try chromium.screenshot(of: page, width: 1280, height: 2400, timeout: Self.browserTimeout)
        #expect(png.count > 10_000, "a 1280×2400 screenshot of the page is more than a blank image")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG file")

        let dom = try chromium.dumpDOM(of: page, timeout: Self.browserTimeout)
        let text = domText(dom)
        let names = try Self.campaignNames(directory)
        #expect(names.count == 21, "the sample's 16 attribution campaigns and its 5 Grona campaigns (they share no name)")
        for name in names {
            #expect(text.contains(name), "campaign \(name.debugDescription) is not in the page's text")
        }
        #expect(Self.elementNames(dom).subtracting(Self.pageElements) == [])
        #expect(text.contains("Leak check 0."))
        #expect(text.contains("⚠ multiple_exposures"), "the sample's spring-banner warning is a banner")
        #expect(PageScan.externalReferences(dom) == [])
        #expect(PageScan.externalReferences(String(decoding: try readFile(page), as: UTF8.self)) == [])
    }

    @Test func hostileCampaignNamesAreTextAndCreateNoElement() throws {
        let chromium = try Chromium.onPath()
        let directory = try temporaryDirectory()
        try writeFile(directory + "/hostile.ndjson", ndjson(ReportPageTests.hostileLines))
        let page = try Self.runReport(["hostile.ndjson"], in: directory)

        let dom = try chromium.dumpDOM(of: page, timeout: Self.browserTimeout)
        let text = domText(dom)
        #expect(text.contains(ReportPageTests.scriptName))
        #expect(text.contains(ReportPageTests.formulaName))
        #expect(!dom.lowercased().contains("<script"), "no script element")
        #expect(Self.elementNames(dom).subtracting(Self.pageElements) == [])
        let anchors = dom.components(separatedBy: "<a ").count - 1
        #expect(anchors == 4, "only the four section links of the page")
        #expect(PageScan.externalReferences(dom) == [])
    }

    /// 1,000 campaigns, each with clicks, an open, a binding, and a control and a variant of 10
    /// units: the page renders (DOM and screenshot) within the time limit and names them all.
    @Test(.timeLimit(.minutes(6))) func aThousandCampaignsRenderInTime() throws {
        let chromium = try Chromium.onPath()
        var lines: [String] = []
        for index in 0..<1_000 {
            let campaign = "campaign-\(index)"
            lines.append(AttributionTests.click("k\(index)", "2026-03-01T10:00:00Z", route: index % 2 == 0 ? "app" : "store", campaign: campaign))
            lines.append(AttributionTests.open("o\(index)", "2026-03-01T10:01:00Z", click: "k\(index)"))
            lines.append(AttributionTests.bind("k\(index)", "2026-03-01T10:02:00Z", "u\(index)@example.com"))
            // Units first exposed over ten days: every campaign has its daily charts.
            for unit in 0..<10 {
                let ts = "2026-03-\(String(format: "%02d", unit + 1))T08:00:00Z"
                lines.append(ExposureTests.decision("c\(index)-\(unit)", campaign, "control", ts: ts, control: true))
                lines.append(ExposureTests.decision("v\(index)-\(unit)", campaign, "bold", ts: ts))
            }
            lines.append(ExposureTests.order("oc\(index)", "c\(index)-0", amount: 100))
            lines.append(ExposureTests.order("ov\(index)", "v\(index)-0", amount: 100))
            lines.append(ExposureTests.order("ov2\(index)", "v\(index)-1", amount: 100))
        }
        let directory = try temporaryDirectory()
        try writeFile(directory + "/many.ndjson.gz", try gzip(ndjson(lines)))
        let page = try Self.runReport(["many.ndjson.gz"], in: directory)

        let started = Date()
        let dom = try chromium.dumpDOM(of: page, timeout: Self.browserTimeout)
        let png = try chromium.screenshot(of: page, width: 1280, height: 1600, timeout: Self.browserTimeout)
        let seconds = Date().timeIntervalSince(started)
        #expect(png.count > 10_000)
        let text = domText(dom)
        for index in [0, 1, 499, 998, 999] {
            #expect(text.contains("campaign-\(index) — 1 clicks, 1 opens, 1 attributed (100.0%)"))
            #expect(text.contains("campaign-\(index) — 2 variants, 20 units"))
        }
        #expect(dom.components(separatedBy: "<details").count - 1 == 2_000, "one collapsible section per campaign and analysis")
        #expect(!dom.contains("<details open"), "a thousand campaigns start collapsed")
        #expect(dom.components(separatedBy: "cumulative conversion rate by day").count - 1 >= 1_000, "daily charts in every campaign")
        print("1,000-campaign page: \(try readFile(page).count) bytes, DOM and screenshot in \(Int(seconds)) s")
    }

    /// SPEC section 10.4: a year of days draws as lines with a few dated ticks, and every daily
    /// chart is in the page with its numbers as text.
    @Test(.timeLimit(.minutes(6))) func aYearOfDaysDrawsTheDailyCharts() throws {
        let chromium = try Chromium.onPath()
        var lines: [String] = []
        for day in 0..<365 {
            let date = CivilDate.from(daysSinceEpoch: CivilDate.daysSinceEpoch(year: 2025, month: 1, day: 1) + day)
            let ts = "\(date.year)-\(String(format: "%02d-%02d", date.month, date.day))T12:00:00Z"
            for campaign in ["spring", "summer"] {
                let id = "\(campaign)-\(day)"
                lines.append(AttributionTests.click("k\(id)", ts, campaign: campaign))
                if day % 3 == 0 { lines.append(AttributionTests.bind("k\(id)", ts, "u\(day)@example.com")) }
                lines.append(ExposureTests.decision("c\(id)", campaign, "control", ts: ts, control: true))
                lines.append(ExposureTests.decision("v\(id)", campaign, "bold", ts: ts))
                if day % 4 == 0 { lines.append(ExposureTests.order("oc\(id)", "c\(id)", amount: 100, ts: ts)) }
                if day % 3 == 0 { lines.append(ExposureTests.order("ov\(id)", "v\(id)", amount: 150, ts: ts)) }
            }
        }
        let directory = try temporaryDirectory()
        try writeFile(directory + "/year.ndjson.gz", try gzip(ndjson(lines)))
        let page = try Self.runReport(["year.ndjson.gz"], in: directory)
        let dom = try chromium.dumpDOM(of: page, timeout: Self.browserTimeout)
        let png = try chromium.screenshot(of: page, width: 1280, height: 4000, timeout: Self.browserTimeout)
        #expect(png.count > 10_000)
        let text = domText(dom)
        #expect(Self.elementNames(dom).isSubset(of: Self.pageElements))
        for chart in ["cumulative conversion rate by day", "lift by day (percentage points) with the always-valid 95% band",
                      "clicks and attributed clicks by click day", "revenue per unit against the control"] {
            #expect(dom.components(separatedBy: chart).count - 1 >= 2, "\(chart) for both campaigns")
        }
        // The axis labels the first, middle and last day; the tooltips hold every day (two campaigns).
        for label in ["2025-01-01", "2025-07-02", "2025-12-31"] { #expect(text.contains(label)) }
        #expect(text.contains("2025-06-15"))
        #expect(dom.contains("<polygon"), "the always-valid band")
        #expect(text.contains("clicks: 2025-01-01 1 … 2025-12-31 1 (every day in the daily CSV)"))
    }
}
