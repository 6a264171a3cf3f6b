/// The part of a run's reports that only a `run --state` writes.
public struct StateRunReport: Sendable {
    public var record: StateRunRecord
    /// `changes.csv`; nil when the run failed and changed nothing.
    public var changes: [UInt8]?
}

