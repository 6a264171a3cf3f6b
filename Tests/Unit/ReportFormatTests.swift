import Testing
@testable import GroveReport

/// docs/OUTPUTS.md, Formats: CSV quoting, the formula guard, decimals and JSON escaping.
struct ReportFormatTests {
    func csvLine(_ cells: [JSONOutput]) -> String {
        var table = CSVTable(header: cells.indices.map { "h\($0)" })
        table.append(cells)
        let text = String(decoding: table.rendered(), as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[1].dropLast())
    }

    @Test func fieldsWithCommaQuoteOrLineBreaksAreQuoted() {
        #expect(csvLine([.text("a,b"), .text("say \"hi\""), .text("plain")]) == #""a,b","say ""hi""",plain"#)
        var table = CSVTable(header: ["x"])
        table.append([.text("line\nbreak\rcr")])
        #expect(String(decoding: table.rendered(), as: UTF8.self) == "x\n\"line\nbreak\rcr\"\n")
    }

    @Test("formula-like text gets a leading apostrophe", arguments: [
        ("=SUM(A1)", "'=SUM(A1)"), ("+cmd", "'+cmd"), ("-x", "'-x"), ("@home", "'@home"),
        ("\tTab", "'\tTab"), ("-", "'-"), ("=1+1", "'=1+1"),
        ("-12", "-12"), ("+3.5e-2", "+3.5e-2"), ("-.5", "-.5"), ("+1.", "+1."), ("safe", "safe"), ("1=1", "1=1"),
    ])
    func formulaGuard(_ text: String, _ expected: String) {
        #expect(String(decoding: CSVTable.guardedAgainstFormula(Array(text.utf8)), as: UTF8.self) == expected)
    }

    @Test func aGuardedCRIsStillQuoted() {
        #expect(csvLine([.text("\rx")]) == "\"'\rx\"")
    }

    @Test func decimalsUseTheShortestRoundTripFormAndNullIsEmpty() {
        #expect(csvLine([.decimal(0.5), .decimal(1.0 / 3.0), .decimal(nil), .decimal(1), .decimal(0.00001), .integer(7), .bool(true)])
            == "0.5,0.3333333333333333,,1.0,1e-05,7,true")
    }

    @Test func jsonEscapesControlCharactersAndKeepsUTF8() {
        let document = JSONOutput.object([JSONOutput.Member("k", .text("é\"\\\n\u{01}"))]).compact()
        #expect(String(decoding: document, as: UTF8.self) == #"{"k":"é\"\\\n\u0001"}"#)
    }

    @Test func jsonIsValidAndReadsBack() throws {
        let document = JSONOutput.object([
            JSONOutput.Member("a", .array([.integer(1), .decimal(nil), .decimal(2.5), .bool(false), .bigInteger(Int128(1) << 70)])),
            JSONOutput.Member("b", .object([])),
        ]).rendered()
        let parsed = try #require(JSONValue.parse(document))
        #expect(parsed["b"] == .object([]))
        #expect(parsed["a"] == .array([.number(1), .null, .number(2.5), .bool(false), .number(1180591620717411303424)]))
    }

    @Test func attributionCSVHasTheExactHeader() {
        let text = String(decoding: AttributionReport.csv(AttributionResult(campaigns: [], totals: AttributionCounts())), as: UTF8.self)
        #expect(text == "campaign,clicks,store_clicks,app_clicks,opens,open_retries,open_conflicts,attributed,bind_retries,bind_conflicts,attribution_rate\n")
    }

    @Test func exposureCSVHasTheExactHeader() {
        let text = String(decoding: ExposureReport.csv([]), as: UTF8.self)
        #expect(text == "campaign,variant,control,units,converted_units,conversion_rate,orders,revenue_minor,revenue_per_unit,impressions,abs_diff,rel_lift,ci_low,ci_high,p_value,srm_p_value,revenue_abs_diff,revenue_ci_low,revenue_ci_high,revenue_p_value,seq_ci_low,seq_ci_high,seq_p_value\n")
    }

    @Test func hostileCampaignNamesAreGuardedButSortedByRawValue() {
        let lines = ["=evil", "a,b", "+1", "-x"].enumerated().map { index, name in
            #"{"type":"link_click","ts":"2026-03-01T10:00:00Z","clickId":"c\#(index)","appKey":"k","slug":"s","route":"app","utm_campaign":"\#(name)"}"#
        }
        let csv = String(decoding: AttributionReport.csv(partialState(lines).joined(scope: .unit).attributionResult()), as: UTF8.self)
        let campaigns = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", maxSplits: 1)[0] }
        #expect(campaigns == ["+1", "'-x", "'=evil", "\"a"])
    }
}
