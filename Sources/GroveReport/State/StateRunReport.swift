/// The part of a run's reports that only a `run --state` writes.
struct StateRunReport: Sendable {
    var record: StateRunRecord
    /// `changes.csv`; nil when the run failed and changed nothing.
    var changes: [UInt8]?
}

