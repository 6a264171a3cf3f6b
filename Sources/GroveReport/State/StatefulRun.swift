import Dispatch
import Foundation

/// `run --state FILE`: ingests the inputs the state has not seen, all or nothing, and writes the
/// reports of everything the state has ingested — the same bytes as one run over all of it.
///
/// The state holds the merged per-key records of every input (never raw lines); a run merges
/// its own inputs' records into the keys they touch, then joins the whole state into reports.
/// Options that shape reports (`--config`, `--preview-scope`) act only at the join, so a change
/// of options between runs needs no rebuild.
public enum StatefulRun {
    /// Why a stateful run stopped before writing reports.
    public enum Failure: Error {
        case state(StateError)
        case output(OutputError)
    }

    /// Runs `options` on the state at `statePath`; `warn` hears what must be told without
    /// failing the run (the state's log not folded back into it at close).
    public static func run(
        _ options: RunOptions, statePath: String, progress: ProgressCounters?, warn: (StateWarning) -> Void = { _ in }
    ) throws(Failure) -> RunResult {
        let started = DispatchTime.now()
        let output: OutputDirectory
        let scratch: String
        do throws(OutputError) {
            output = try OutputDirectory(
                path: options.outputDirectory ?? RunOptions.defaultOutputDirectory, lockWaitSeconds: options.lockWaitSeconds)
            scratch = try output.scratchDirectory()
        } catch {
            throw .output(error)
        }
        defer {
            TemporaryFiles.remove(scratch)
            output.discard()
        }
        let store: StateStore
        do throws(StateError) {
            store = try StateStore(path: statePath, lockWaitSeconds: options.lockWaitSeconds)
        } catch {
            throw .state(error)
        }
        // Closed whatever happens, and told when SQLite's log could not be folded back into FILE.
        defer { store.close().map(warn) }
        var (result, spools) = try ingest(options, store: store, scratch: scratch, progress: progress, warn: warn)
        result.wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        do throws(OutputError) {
            // A run that changed nothing in the state writes only its accounting and rejects.
            try ReportWriter.writeAll(result, rejects: .spools(spools), to: output)
        } catch {
            throw .output(error)
        }
        // Until this lands, the next run takes this one's reports as never written and lists
        // its changes again: a report lost is worse than a change listed twice.
        if let record = result.stateRun?.record, result.stateRun?.changes != nil {
            try? store.markReported(run: record.id)
        }
        return result
    }

    /// Reads the new inputs and, when they are all sound, merges them into the state and
    /// commits. Returns the result (a state-wide one after a commit, this run's own otherwise)
    /// and this run's reject spools.
    private static func ingest(
        _ options: RunOptions, store: StateStore, scratch: String, progress: ProgressCounters?,
        warn: (StateWarning) -> Void
    ) throws(Failure) -> (RunResult, [String]) {
        var timer = StatePhaseTimer()
        var plan: IngestionPlan
        do throws(StateError) {
            plan = try IngestionPlan(options.inputs, store: store, scratch: scratch)
            // Section 10's report columns, and the stored results recomputed when the windows
            // changed or they predate Σr²: in this run's transaction, dropped with it.
            try store.addMissingHistoryColumns()
            if let reason = try StateRecompute.reason(store: store, windows: options.windows, scope: options.previewScope) {
                try StateRecompute.recompute(store: store, windows: options.windows, scope: options.previewScope)
                warn(.recomputed(path: store.path, reason: reason))
            }
        } catch {
            throw .state(damage(error))
        }
        var accounting = plan.discovery
        var spools: [String] = []
        var linesPerFile = [Int](repeating: 0, count: plan.newFiles.count)
        var leaked = 0
        var recordsRead = 0
        // Batch by batch, in report order, so memory follows the batch and not the run; every
        // batch is read (to report every input error and reject), but once one is unsound the
        // rest are not merged, and the transaction is dropped.
        for (number, batch) in plan.batches(maxBytes: options.stateBatchBytes).enumerated() {
            var aggregation: (state: PartialState, spools: [String], linesPerFile: [Int])
            do throws(OutputError) {
                let batchScratch = scratch + "/batch-\(number)"
                guard mkdir(batchScratch, 0o700) == 0 else {
                    throw OutputError.cannotCreate(path: batchScratch, reason: errnoDescription())
                }
                aggregation = try Pipeline.aggregate(
                    batch.map { plan.newFiles[$0] }, jobs: options.jobs, rejectsRaw: options.rejectsRaw,
                    scratch: batchScratch, progress: progress, inflate: options.inflate)
            } catch {
                throw .output(error)
            }
            timer.lap("read inputs")
            accounting.merge(aggregation.state.accounting)
            spools += aggregation.spools
            for (position, lines) in zip(batch, aggregation.linesPerFile) { linesPerFile[position] = lines }
            guard accounting.inputErrors.isEmpty else { continue }
            do throws(StateError) {
                var merge = try IncrementalMerge(into: store, windows: options.windows, scope: options.previewScope)
                // Handed over, not copied: the merge releases this run's records as it stores them.
                leaked += try merge.merge(take(&aggregation.state, PartialState()))
                recordsRead += merge.rowsRead
                timer = StatePhaseTimer()
            } catch {
                throw .state(damage(error))
            }
        }
        plan.count(linesPerFile: linesPerFile)
        do throws(StateError) {
            let record = StateRunRecord(
                id: try store.nextRunID(), started: Self.timestamp(), options: Self.describe(options), inputs: plan.inputs,
                lines: accounting.lines, rejected: accounting.rejectedTotal, recordsRead: recordsRead)
            // Until the state has changed, the result is that of an empty analysis.
            let nothing = JoinedState()
            var result = RunResult(
                accounting: accounting, attribution: nothing.attributionResult(),
                exposure: nothing.exposureResult(configuration: nil), wallSeconds: 0,
                stateRun: StateRunReport(record: record, changes: nil))
            guard accounting.inputErrors.isEmpty && result.rejectRate <= options.maxRejectRate else {
                return (result, spools)
            }
            let whole = try store.reportState(scope: options.previewScope)
            result.exposure = whole.exposureResult(
                configuration: options.configuration, maxCampaigns: options.maxCampaigns, sequentialTuning: options.sequentialTuning)
            // A failed leak check fails the run: the store is dropped uncommitted.
            result.exposure.audit.leakCheck = leaked
            guard leaked == 0 else { return (result, spools) }
            result.accounting = whole.accounting
            result.attribution = whole.attributionResult(maxCampaigns: options.maxCampaigns)
            _ = consume whole   // the reports need only the results
            timer.lap("results")
            let changes = try commit(record, result, to: store)
            timer.lap("commit")
            result.stateRun?.changes = changes
            return (result, spools)
        } catch {
            throw .state(damage(error))
        }
    }

    /// The file was found to be a state before it was opened for writing: whatever later says
    /// it is not one (a stored record that cannot be read) is damage, which the rebuild mends.
    private static func damage(_ error: StateError) -> StateError {
        guard case .notAState(let path, let reason) = error else { return error }
        return .damaged(path: path, reason: reason)
    }

    /// Records the run (as `committed`: its reports are not written yet) and its report rows,
    /// commits, and returns `changes.csv` against the last run whose reports were written.
    private static func commit(_ record: StateRunRecord, _ result: RunResult, to store: StateStore) throws(StateError) -> [UInt8] {
        let current: [(HistoryTable, [[JSONOutput]])] = [
            (.attribution, AttributionReport.rows(result.attribution)), (.exposure, ExposureReport.rows(result.exposure.campaigns)),
        ]
        let previousRun = try store.lastReportedRunID()
        var comparisons: [ChangesReport.Comparison] = []
        for (table, rows) in current {
            let previous = try previousRun.map { run throws(StateError) in try store.history(table, run: run) } ?? []
            comparisons.append(ChangesReport.Comparison(table: table, previous: previous, current: rows))
        }
        try store.recordRun(record)
        for (table, rows) in current { try store.recordHistory(table, run: record.id, rows: rows) }
        try store.commit()
        TestHooks.committed()
        return ChangesReport.csv(comparisons)
    }

    /// The options that shape this run's reports, as stored in the `runs` table.
    private static func describe(_ options: RunOptions) -> String {
        String(decoding: JSONOutput.object([
            JSONOutput.Member("preview_scope", .text(options.previewScope.rawValue)),
            JSONOutput.Member("config", options.configurationPath.map(JSONOutput.text) ?? .null),
            JSONOutput.Member("max_reject_rate", .decimal(options.maxRejectRate)),
            JSONOutput.Member("max_campaigns", .integer(options.maxCampaigns)),
            JSONOutput.Member("sequential_tuning", .integer(options.sequentialTuning)),
            JSONOutput.Member("conversion_window", options.windows.conversionHours.map(JSONOutput.integer) ?? .null),
            JSONOutput.Member("bind_window", options.windows.bindDays.map(JSONOutput.integer) ?? .null),
        ]).compact(), as: UTF8.self)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
