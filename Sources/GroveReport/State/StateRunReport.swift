/// The part of a run's reports that only a `run --state` writes.
public struct StateRunReport: Sendable {
    public var record: StateRunRecord
    /// `changes.csv`; nil when the run failed and changed nothing.
    public var changes: [UInt8]?
}

extension PreviewAudit {
    /// The audit of a run that analysed nothing (a failed `run --state`).
    static var empty: PreviewAudit {
        PreviewAudit(
            campaigns: [], previewTotals: Array(repeating: 0, count: EventType.grona.count),
            consentDeniedTotals: Array(repeating: 0, count: EventType.grona.count), violations: AuditViolations(), leakCheck: 0)
    }
}
