import Foundation

/// Recomputes a state's per-campaign results (`aggregates`) from its stored records, when a sum
/// kept night by night cannot simply be carried on: the windows or the preview scope changed
/// since the last run (the reports are then those of one run with the new options), or the
/// results were written before stage format 5 and lack Σr² (the revenue interval).
///
/// Every record of the state is read once and joined under the run's preview scope, as one run
/// over every ingested input would join them; the results replace the stored ones in the run's
/// transaction, so a run that fails afterwards leaves them as they were. Its cost is that of one
/// run over the whole state, paid by the one night whose options changed.
enum StateRecompute {
    /// Why a run recomputes; nil when the stored results can be carried on.
    static func reason(store: StateStore, windows: AnalysisWindows, scope: PreviewScope) throws(StateError) -> String? {
        guard let options = try store.lastRunOptions() else { return nil }
        if try !store.aggregatesAreCurrent() {
            return "its per-campaign results predate the revenue interval (stage format \(RecordEncoder.formatVersion))"
        }
        let previous = AnalysisWindows(runOptions: options)
        if previous != windows {
            return "the windows changed (\(previous.description) before, \(windows.description) now)"
        }
        if let previousScope = previousScope(runOptions: options), previousScope != scope {
            return "the preview scope changed (\(previousScope.rawValue) before, \(scope.rawValue) now)"
        }
        return nil
    }

    /// The preview scope recorded with a run (`runs.options`), whose results the state keeps.
    private static func previousScope(runOptions text: String) -> PreviewScope? {
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        return (object?["preview_scope"] as? String).flatMap(PreviewScope.init(rawValue:))
    }

    /// Replaces the stored results with those of every stored record under `windows` and `scope`.
    static func recompute(store: StateStore, windows: AnalysisWindows, scope: PreviewScope) throws(StateError) {
        var records = PartialState()
        let names = StateNames(store: store)
        let rows = try store.allRecordRows()
        try StateRows.read(rows.lazy.map { StateRows.Row(key: $0.key, value: $0.value) }, into: &records, names: names)
        let joined = records.joined(scope: scope, windows: windows)
        let results = ReportAggregates(joined, sign: 1).state(symbols: joined.symbols)
        let encoded = StateRecordText.split(RecordEncoder.encode(results)).filter {
            StateSchema.aggregateKinds.contains(StateRecordText.kind(of: $0.0))
        }
        try store.replaceAggregates(scope: scope, with: encoded)
    }
}
