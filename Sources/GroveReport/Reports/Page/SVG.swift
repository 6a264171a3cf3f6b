/// The few SVG primitives the page's charts are drawn with, written straight into the page.
///
/// Coordinates are rounded to one decimal so the bytes stay short and the same on every machine.
/// Every mark can carry a `<title>` (a tooltip, and text in the DOM) with its exact values.
struct SVG {
    /// The chart palette: Okabe–Ito colours, distinguishable with every common colour-vision
    /// deficiency and in grey when printed (the marks also differ by position and label).
    enum Colour: String {
        case blue = "#0072B2"
        case orange = "#E69F00"
        case green = "#009E73"
        case vermillion = "#D55E00"
        case sky = "#56B4E9"
        case purple = "#CC79A7"
        case grey = "#6E6E6E"
        case ink = "#1A1A1A"
    }

    /// Opens `<svg>` of the given size; its first `<title>` names the chart for screen readers
    /// (log text goes into text nodes only, never into attributes).
    static func open(_ page: inout HTMLWriter, width: Double, height: Double, label: String) {
        page.raw("<svg class=\"chart\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\"><title>")
        page.text(label)
        page.raw("</title>")
    }

    static func close(_ page: inout HTMLWriter) {
        page.raw("</svg>")
    }

    /// A filled rectangle, with an optional tooltip.
    static func rect(
        _ page: inout HTMLWriter, x: Double, y: Double, width: Double, height: Double, fill: Colour, title: String? = nil
    ) {
        page.raw("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(height))\" fill=\"\(fill.rawValue)\"")
        closeMark(&page, "rect", title: title)
    }

    /// A straight line.
    static func line(
        _ page: inout HTMLWriter, x1: Double, y1: Double, x2: Double, y2: Double, stroke: Colour, width: Double = 1,
        dashed: Bool = false
    ) {
        page.raw("<line x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\" stroke=\"\(stroke.rawValue)\" stroke-width=\"\(n(width))\"")
        if dashed { page.raw(" stroke-dasharray=\"3 3\"") }
        page.raw("/>")
    }

    /// A point estimate with its interval: whiskers from `low` to `high` and a dot at `value`
    /// (all in pixels), one tooltip for the whole mark.
    static func pointWithInterval(
        _ page: inout HTMLWriter, value: Double, low: Double?, high: Double?, y: Double, colour: Colour, title: String
    ) {
        page.raw("<g>")
        page.raw("<title>")
        page.text(title)
        page.raw("</title>")
        if let low, let high {
            line(&page, x1: low, y1: y, x2: high, y2: y, stroke: colour, width: 2)
            line(&page, x1: low, y1: y - 5, x2: low, y2: y + 5, stroke: colour, width: 2)
            line(&page, x1: high, y1: y - 5, x2: high, y2: y + 5, stroke: colour, width: 2)
        }
        page.raw("<circle cx=\"\(n(value))\" cy=\"\(n(y))\" r=\"4.5\" fill=\"\(colour.rawValue)\" stroke=\"#FFFFFF\" stroke-width=\"1\"/>")
        page.raw("</g>")
    }

    /// Text at a position; `anchor` is `start`, `middle` or `end`.
    static func text(
        _ page: inout HTMLWriter, _ content: String, x: Double, y: Double, anchor: String = "start",
        className: String? = nil
    ) {
        page.raw("<text x=\"\(n(x))\" y=\"\(n(y))\"")
        if anchor != "start" { page.raw(" text-anchor=\"\(anchor)\"") }
        if let className { page.raw(" class=\"\(className)\"") }
        page.raw(">")
        page.text(content)
        page.raw("</text>")
    }

    /// Text from the logs, cut to `limit` characters (with `…`) so it fits beside a chart; the
    /// whole text is in its tooltip.
    static func label(_ page: inout HTMLWriter, _ name: ByteString, x: Double, y: Double, limit: Int = 18) {
        let whole = name.description
        let shown = whole.count > limit ? String(whole.prefix(limit - 1)) + "…" : whole
        page.raw("<text x=\"\(n(x))\" y=\"\(n(y))\" text-anchor=\"end\"><title>")
        page.text(whole)
        page.raw("</title>")
        page.text(shown)
        page.raw("</text>")
    }

    private static func closeMark(_ page: inout HTMLWriter, _ tag: String, title: String?) {
        guard let title else { return page.raw("/>") }
        page.raw("><title>")
        page.text(title)
        page.raw("</title></\(tag)>")
    }

    /// A coordinate with at most one decimal: `12`, `12.5`.
    static func n(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        if fraction == 0 { return String(whole) }
        return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }
}

/// Maps a value interval onto a pixel interval (a linear axis).
struct LinearScale {
    var domain: (low: Double, high: Double)
    var range: (low: Double, high: Double)

    func callAsFunction(_ value: Double) -> Double {
        let span = domain.high - domain.low
        guard span > 0 else { return range.low }
        let clamped = min(max(value, domain.low), domain.high)
        return range.low + (clamped - domain.low) / span * (range.high - range.low)
    }

    /// A round upper bound ≥ `value` for an axis from 0: 1, 2 or 5 times a power of ten.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        var step = 1.0  // the largest power of ten ≤ value
        while step > value { step /= 10 }
        while step * 10 <= value { step *= 10 }
        for multiple in [1.0, 2.0, 5.0, 10.0] where step * multiple >= value { return step * multiple }
        return step * 10
    }
}
