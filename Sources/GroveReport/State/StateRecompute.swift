/// Recomputes a state's per-scope results (`aggregates`) from its stored records, when a sum
/// kept night by night cannot simply be carried on: the windows changed since the last run
/// (SPEC section 10.1: the reports are then those of one run with the new windows), or the
/// results were written before stage format 5 and lack Σr² (the revenue interval).
///
/// Every record of the state is read once and joined under both preview scopes, as one run over
/// every ingested input would join them; the results replace the stored ones in the run's
/// transaction, so a run that fails afterwards leaves them as they were. Its cost is that of one
/// run over the whole state, paid by the one night whose options changed.
enum StateRecompute {
    /// Why a run recomputes; nil when the stored results can be carried on.
    static func reason(store: StateStore, windows: AnalysisWindows) throws(StateError) -> String? {
        guard try store.lastRunOptions() != nil else { return nil }
        if try !store.aggregatesAreCurrent() {
            return "its per-campaign results predate the revenue interval (stage format \(RecordEncoder.formatVersion))"
        }
        let previous = try AnalysisWindows(runOptions: store.lastRunOptions() ?? "{}")
        if previous != windows {
            return "the windows changed (\(previous.description) before, \(windows.description) now)"
        }
        return nil
    }

    /// Replaces the stored results of both scopes with those of every stored record under `windows`.
    static func recompute(store: StateStore, windows: AnalysisWindows) throws(StateError) {
        var records = PartialState()
        let names = StateNames(store: store)
        let rows = try store.allRecordRows()
        try StateRows.read(rows.lazy.map { StateRows.Row(key: $0.key, value: $0.value) }, into: &records, names: names)
        for scope in PreviewScope.allCases {
            let joined = records.joined(scope: scope, windows: windows)
            let results = ReportAggregates(joined, sign: 1).state(symbols: joined.symbols)
            let encoded = StateRecordText.split(RecordEncoder.encode(results)).filter {
                StateSchema.aggregateKinds.contains(StateRecordText.kind(of: $0.0))
            }
            try store.replaceAggregates(scope: scope, with: encoded)
        }
    }
}
