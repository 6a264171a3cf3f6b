/// How the generated logs look: the friendly default, or shaped like production SDK logs.
public enum LogShape: String, Sendable, CaseIterable {
    /// Compact lines (about 215 bytes) and few distinct installs: the shape of `SampleData/`,
    /// which must not change.
    case friendly
    /// Like production exports: every Grona line carries 5 to 10 keys of SDK metadata the analysis
    /// ignores (nested objects and arrays among them), lines average about 280 bytes, and there are
    /// about 150k distinct installs and 240k distinct clicks per 1.25M lines.
    case production

    /// The share of event lines that come from FunnelsGrove (the rest are Grona's).
    var funnelsGroveShare: Double {
        switch self {
        case .friendly: 0.5
        case .production: 0.43
        }
    }

    /// The chance that a Grona decision comes from an install never seen before.
    var newInstallShare: Double {
        switch self {
        case .friendly: 0.22
        case .production: 0.6
        }
    }
}
