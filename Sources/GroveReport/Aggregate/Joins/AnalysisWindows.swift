import Foundation

/// The windows of SPEC section 10.1 (docs/EXPOSURE.md, docs/ATTRIBUTION.md): how long after a
/// unit's first exposure an order converts it (`--conversion-window HOURS`), and how long after
/// its click a binding attributes it (`--bind-window DAYS`). Both bounds are inclusive, at
/// nanosecond precision; nil is unlimited (sections 3 and 4 as written).
public struct AnalysisWindows: Sendable, Equatable, CustomStringConvertible {
    public var conversionHours: Int?
    public var bindDays: Int?

    public static let conversionHoursRange = 1...87_600
    public static let bindDaysRange = 1...3_650

    public init(conversionHours: Int? = nil, bindDays: Int? = nil) {
        self.conversionHours = conversionHours
        self.bindDays = bindDays
    }

    /// The windows a state run recorded in its options (`"conversion_window"`, `"bind_window"`;
    /// absent in runs of a release before them: no window).
    init(runOptions text: String) {
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        conversionHours = (object["conversion_window"] as? NSNumber)?.intValue
        bindDays = (object["bind_window"] as? NSNumber)?.intValue
    }

    /// The last instant at which an order still converts a unit first exposed at `first`.
    func conversionEnd(after first: Instant) -> Instant? {
        conversionHours.map { Instant(seconds: first.seconds + Int64($0) * 3_600, nanoseconds: first.nanoseconds) }
    }

    /// Whether a binding whose winning line is at `bind` attributes a click at `click`.
    func attributes(click: Instant, bind: Instant) -> Bool {
        guard let bindDays else { return true }
        return click <= bind && bind <= Instant(seconds: click.seconds + Int64(bindDays) * 86_400, nanoseconds: click.nanoseconds)
    }

    public var description: String {
        "conversion window " + (conversionHours.map { "\($0) h" } ?? "none") + ", bind window " + (bindDays.map { "\($0) d" } ?? "none")
    }
}
