import Foundation
import Testing
@testable import GroveReport

/// `report.html` (docs/PAGE.md) without a browser: escaping, the drawn interval, the number
/// texts, determinism and what each section shows. The browser tests render it for real.
extension ReportPageTests {
    @Test func textIsEscapedForElementsAndAttributes() {
        var page = HTMLWriter()
        page.text(ByteString(Self.scriptName))
        page.text(" & \"a\" 'b'")
        #expect(String(decoding: page.bytes, as: UTF8.self)
            == "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;a&quot; &#x27;b&#x27;")
    }

    @Test func controlCharactersStayControlCharactersInTheDOM() {
        var page = HTMLWriter()
        page.text(ByteString("a\u{0}b\tc\nd\re\u{1F}\u{7F}é"))
        #expect(String(decoding: page.bytes, as: UTF8.self) == "a&#xFFFD;b\tc\nd&#13;e&#31;&#127;é")
    }

    @Test func theRateIntervalIsTheNormalIntervalClippedToZeroAndOne() throws {
        let z = 1.959963984540054
        // 2 of 4: p = 0.5, half-width z·sqrt(0.25/4) = z·0.25.
        let half = try #require(RateInterval(ExposureRow(campaign: ByteString("c"), variant: ByteString("v"), units: 4, convertedUnits: 2)))
        #expect(half.rate == 0.5 && half.low == 0.5 - z * 0.25 && half.high == 0.5 + z * 0.25)
        // 3 of 4: p = 0.75, half-width z·sqrt(0.1875/4) ≈ 0.424 → the top is clipped to 1.
        let high = try #require(RateInterval(ExposureRow(campaign: ByteString("c"), variant: ByteString("v"), units: 4, convertedUnits: 3)))
        #expect(high.low == 0.75 - z * (0.1875 / 4).squareRoot())
        #expect(high.high == 1)
        // 1 of 10: p = 0.1, half-width z·0.0949 ≈ 0.186 → the bottom is clipped to 0.
        let low = try #require(RateInterval(ExposureRow(campaign: ByteString("c"), variant: ByteString("v"), units: 10, convertedUnits: 1)))
        #expect(low.low == 0 && low.high == 0.1 + z * (0.09 / 10).squareRoot())
        // No units, no rate, nothing to draw.
        #expect(RateInterval(ExposureRow(campaign: ByteString("c"), variant: ByteString("v"))) == nil)
    }

    @Test func numbersForPeople() {
        #expect(NumberText.percent(0.15289256198347106) == "15.3%")
        #expect(NumberText.percent(0) == "0.0%")
        #expect(NumberText.percent(0.0001) == "<0.1%")
        #expect(NumberText.percent(nil) == "–")
        #expect(NumberText.points(-0.03973038883620106) == "-4.0 pp")
        #expect(NumberText.points(0.061) == "+6.1 pp")
        #expect(NumberText.points(-0.0001) == "0.0 pp")
        #expect(NumberText.pValue(0.24594426507567602) == "0.246")
        #expect(NumberText.pValue(7.044056531889534e-15) == "7.04e-15")
        #expect(NumberText.range("10.8%", "19.8%") == "10.8 – 19.8%")
        #expect(NumberText.range("-10.7 pp", "+2.7 pp") == "-10.7 – +2.7 pp")
        #expect(NumberText.exact(0.1) == "0.1" && NumberText.exact(nil) == "null")
    }

    @Test func axesEndOnRoundNumbersAndCoordinatesKeepOneDecimal() {
        #expect(LinearScale.niceCeiling(0.23) == 0.5)
        #expect(LinearScale.niceCeiling(0.5) == 0.5)
        #expect(LinearScale.niceCeiling(0.51) == 1)
        #expect(LinearScale.niceCeiling(3) == 5)
        #expect(LinearScale.niceCeiling(0) == 1)
        let scale = LinearScale(domain: (-0.2, 0.2), range: (100, 300))
        #expect(scale(0) == 200 && scale(-0.2) == 100 && scale(1) == 300)
        #expect(SVG.n(12) == "12" && SVG.n(12.46) == "12.5" && SVG.n(-0.46) == "-0.5" && SVG.n(-12.5) == "-12.5")
    }

    @Test func hostileNamesAreTextAndThePageHasNoScriptNorExternalReference() {
        let page = Self.page(Self.hostileLines)
        #expect(!page.lowercased().contains("<script"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("=HYPERLINK(&quot;http://x&quot;)"))
        #expect(!page.contains(#"HYPERLINK("http"#))
        #expect(PageScan.externalReferences(page) == [])
        #expect(PageScan.externalReferences(##"<a href="#run"><img src="https://x/y.png"><link href='//cdn/s.css'><i style="background:url(http://x)">"##)
            == [#"src="https://x/y.png""#, "href='//cdn/s.css'", "url(http://x"])
        #expect(page.contains("Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\""))
    }

    @Test func theSameRunGivesTheSameBytesWhateverItsWallTimeOrLineOrder() {
        let lines = Self.hostileLines + [ExposureTests.order("o1", "v0-1", amount: 500)]
        let page = Self.page(lines, wallSeconds: 1)
        #expect(Self.page(lines, wallSeconds: 99.5) == page)
        #expect(Self.page(lines.reversed(), wallSeconds: 3) == page)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(page.hasSuffix("</html>\n"))
    }

    /// Two controls (no lift, `no_single_control`), 10 + 10 units, 2 and 5 conversions: the
    /// banner, the per-variant units and rates as text, the interval as text, and no lift chart.
    @Test func exposureShowsWarningsUnitsRatesAndIntervals() {
        var lines = (1...10).map { ExposureTests.decision("a\($0)", "camp", "A", control: true) }
        lines += (1...10).map { ExposureTests.decision("b\($0)", "camp", "B", control: true) }
        lines += (1...2).map { ExposureTests.order("oa\($0)", "a\($0)", amount: 100) }
        lines += (1...5).map { ExposureTests.order("ob\($0)", "b\($0)", amount: 100) }
        let page = Self.page(lines)
        #expect(page.contains("<span class=\"badge warn\">no_single_control</span>"))
        #expect(page.contains("<strong>⚠ no_single_control</strong>the campaign has no control variant, or more than one"))
        // A: 2 of 10 = 20.0%, interval 0.2 ± 1.96·sqrt(0.016) = 0.2 ± 0.2479 → [0, 0.4479].
        #expect(page.contains("<td>20.0%</td><td>0.0 – 44.8%</td>"))
        // B: 5 of 10 = 50.0%, interval 0.5 ± 1.96·sqrt(0.025) = 0.5 ± 0.3099 → [0.1901, 0.8099].
        #expect(page.contains("<td>50.0%</td><td>19.0 – 81.0%</td>"))
        #expect(page.contains("50.0% [19.0 – 81.0%] control"))
        #expect(page.contains("No lift: the campaign needs exactly one control variant."))
        #expect(page.contains("conversion rate 0.5 (5 of 10 units)"))
    }

    /// One control of 10 units with 2 conversions and B with 5: lift +30.0 pp with its interval
    /// 0.3 ± 1.96·sqrt(0.016 + 0.025) = 0.3 ± 0.3969 → [-9.7, +69.7] pp against the zero line.
    @Test func liftIsDrawnAgainstAZeroLineWithItsIntervalAndPValue() {
        var lines = (1...10).map { ExposureTests.decision("a\($0)", "camp", "A", control: true) }
        lines += (1...10).map { ExposureTests.decision("b\($0)", "camp", "B") }
        lines += (1...2).map { ExposureTests.order("oa\($0)", "a\($0)", amount: 100) }
        // B's orders on the next day: day charts of two days.
        lines += (1...5).map { ExposureTests.order("ob\($0)", "b\($0)", amount: 100, ts: "2026-03-02T11:00:00Z") }
        let page = Self.page(lines)
        // z = 0.3 / 0.20248 = 1.4816, p = 0.138.
        #expect(page.contains("+30.0 pp [-9.7 – +69.7 pp] p = 0.138"))
        #expect(page.contains("lift against the control (percentage points): fixed 95% interval, and always-valid below it"))
        #expect(page.contains("stroke-dasharray=\"3 3\""))
        // The always-valid interval beside the fixed one (SPEC section 10.4), as text too.
        let sequential = SequentialInterval.interval(difference: 0.3, standardError: (0.016 + 0.025).squareRoot(), units: 20, tuning: 5000)
        let band = NumberText.range(NumberText.points(sequential.low), NumberText.points(sequential.high))
        #expect(band == "-253.3 – +313.3 pp")
        #expect(page.contains("+30.0 pp [\(band)] p = \(NumberText.pValue(sequential.pValue))</text>"))
        // Revenue: 20.00 against 50.00 per unit, s² = 160000/90 and 250000/90: 30.00 ∓ 1.96·21.344.
        #expect(page.contains("revenue per unit against the control (minor units), 95% interval"))
        #expect(page.contains("30.00 [-11.83 – 71.83] p = 0.160"))
        // The daily charts: B at 0/10 on day 1 and 5/10 on day 2, as text too.
        #expect(page.contains("cumulative conversion rate by day (exposure_daily.csv)"))
        #expect(page.contains("2026-03-01 0.0% (0/10); 2026-03-02 50.0% (5/10)"))
        #expect(page.contains("lift by day (percentage points) with the always-valid 95% band"))
        #expect(!page.contains("badge warn"))
        #expect(page.contains("<strong>No health warnings.</strong>"))
    }

    @Test func theAuditHighlightsViolationsAndShowsTheLeakCheck() {
        let page = Self.page([
            ExposureTests.grant("i1", "camp", "A", preview: true),
            ExposureTests.decision("i2", "camp", "A", control: true),
        ])
        #expect(page.contains("<strong>Leak check 0.</strong>"))
        #expect(page.contains("<strong>1 violation.</strong>preview_grant 1; validate exits 3."))
        #expect(page.contains("<tr class=\"flagged\"><td class=\"name\">preview_grant</td><td class=\"bad\">1</td></tr>"))
        // preview_grant is the first of the nine violations.
        #expect(page.contains("<td class=\"bad\">1</td>" + String(repeating: "<td>0</td>", count: 8) + "</tr>"))
        // The preview links by kind and outcome, all sixteen cells written.
        #expect(page.contains("<th class=\"name\">kind</th><th>paired</th><th>cleared</th><th>rejected</th><th>ignored</th>"))
        #expect(page.contains("<tr><td class=\"name\">malformed</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>"))
    }

    @Test func theRunShowsTopRejectReasonsAndInputErrors() {
        var state = partialState(["{", "{", #"{"type":"x"}"#, #"{"type":"decision"}"#, ""])
        state.accounting.inputErrors = [InputError(file: "logs/<b>.gz", error: "truncated gzip stream", offset: 12)]
        let joined = state.joined(scope: .unit)
        let result = RunResult(
            accounting: state.accounting, attribution: joined.attributionResult(),
            exposure: joined.exposureResult(configuration: nil), wallSeconds: 0)
        let page = String(decoding: ReportPage.html(result), as: UTF8.self)
        #expect(page.contains("<tr><td class=\"name\"><code>invalid_json</code></td><td>2</td><td>40.0%</td></tr>"))
        #expect(page.contains("<tr><td class=\"name\"><code>missing_field:ts</code></td><td>1</td><td>20.0%</td></tr>"))
        #expect(page.contains("<strong>1 input error</strong>"))
        #expect(page.contains("<td class=\"name\">logs/&lt;b&gt;.gz</td><td class=\"name\">truncated gzip stream</td><td>12</td>"))
    }

    @Test func manyCampaignsStartCollapsedAndFewStartOpen() {
        let few = Self.page((1...3).map { AttributionTests.click("k\($0)", "2026-03-01T10:00:00Z", campaign: "c\($0)") })
        #expect(few.components(separatedBy: "<details open>").count == 4)
        let many = Self.page((1...(ReportPage.openCampaignLimit + 1)).map {
            AttributionTests.click("k\($0)", "2026-03-01T10:00:00Z", campaign: "c\($0)")
        })
        #expect(!many.contains("<details open"))
        #expect(many.components(separatedBy: "<details>").count == ReportPage.openCampaignLimit + 2)
    }
}
