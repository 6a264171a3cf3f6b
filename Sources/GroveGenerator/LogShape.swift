/// How the generated logs look: the friendly default, or shaped like production SDK logs.
public enum LogShape: String, Sendable, CaseIterable {
    /// Compact lines (about 215 bytes) and few distinct installs: the shape of `SampleData/`,
    /// which must not change.
    case friendly
    /// Like production exports: every Grona line carries 5 to 10 keys of SDK metadata the analysis
    /// ignores (nested objects and arrays among them), lines average about 280 bytes, and there are
    /// about 150k distinct installs and 240k distinct clicks per 1.25M lines.
    case production
    /// Production-shaped lines in which every click, open, install and order is new: no duplicate
    /// clicks, open retries or conflicts, returning installs or duplicate orders. The worst case
    /// for the engine's tables (`Benchmarks/run.sh`): every id line adds a string and a record.
    case highCardinality = "high-cardinality"

    /// The share of event lines that come from FunnelsGrove (the rest are Grona's).
    var funnelsGroveShare: Double {
        switch self {
        case .friendly: 0.5
        case .production, .highCardinality: 0.43
        }
    }

    /// The chance that a Grona decision comes from an install never seen before.
    var newInstallShare: Double {
        switch self {
        case .friendly: 0.22
        case .production: 0.6
        case .highCardinality: 1
        }
    }

    /// Whether every click, open, install and order line names an id no line before it named.
    var distinctIDs: Bool { self == .highCardinality }

    /// Whether Grona lines carry the SDK metadata of production logs.
    var hasSDKMetadata: Bool { self != .friendly }
}
