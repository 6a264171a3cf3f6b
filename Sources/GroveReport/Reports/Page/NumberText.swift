import Foundation

/// Numbers as the page writes them for people: rounded for reading, the same bytes on every run.
/// (Exact values stay in the CSV and JSON reports, and in each chart mark's tooltip.)
enum NumberText {
    /// A share as a percentage with one decimal: `15.3%`; `–` for none. A share above 0 that
    /// would round to `0.0%` is `<0.1%`, so nothing present reads as absent.
    static func percent(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        if value > 0 && value < 0.0005 { return "<0.1%" }
        return fixed(value * 100, decimals: 1) + "%"
    }

    /// A signed difference of shares in percentage points: `+4.0 pp`, `-3.2 pp` (ASCII signs,
    /// as in every other number of the page).
    static func points(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        let text = fixed(abs(value) * 100, decimals: 1)
        if text == "0.0" { return "0.0 pp" }
        return (value < 0 ? "-" : "+") + text + " pp"
    }

    /// `low – high` with a shared unit written once: `10.8 – 19.8%`, `-10.7 – +2.7 pp`.
    static func range(_ low: String, _ high: String) -> String {
        for unit in ["%", " pp"] where low.hasSuffix(unit) && high.hasSuffix(unit) {
            return "\(low.dropLast(unit.count)) – \(high)"
        }
        return "\(low) – \(high)"
    }

    /// A p-value with three significant digits (`0.246`, `1.23e-05`); `–` for none.
    static func pValue(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        if value == 0 { return "0" }
        return value >= 0.001 ? String(format: "%.3f", value) : String(format: "%.2e", value)
    }

    /// A value in its exact shortest form, as the JSON reports write it; `null` for none.
    static func exact(_ value: Double?) -> String {
        value.map(DecimalFormat.shortest) ?? "null"
    }

    /// A minor-unit amount as the reports write it (an integer; the logs name no single currency).
    static func minor(_ value: Int128) -> String { String(value) }

    /// `value` correctly rounded to `decimals` places (printf's `%.Nf`, deterministic).
    static func fixed(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
