import Dispatch
import Foundation
import Synchronization

/// The whole batch: inputs → lines → events → partial states (in parallel) → partitions by key
/// → joined state (partition by partition, in parallel) → results → reports.
public enum Pipeline {
    /// Runs the pipeline and, when the options name an output directory, writes every report.
    public static func run(_ options: RunOptions, progress: ProgressCounters? = nil) throws(OutputError) -> RunResult {
        let started = DispatchTime.now()
        let output = try options.outputDirectory.map { path throws(OutputError) in
            try OutputDirectory(path: path, lockWaitSeconds: options.lockWaitSeconds)
        }
        let scratch = try output?.scratchDirectory()
        defer {
            if let scratch { TemporaryFiles.remove(scratch) }
            output?.discard()
        }

        let (files, discoveryErrors) = InputDiscovery.expand(options.inputs)
        var (partials, spools, _) = try read(
            files, jobs: options.jobs, rejectsRaw: options.rejectsRaw, scratch: scratch, progress: progress,
            inflate: options.inflate, into: ShardedPartialState.self)
        progress?.phase = .merging
        var merged = PartitionedState(
            merging: take(&partials, []), partitions: options.partitionCount, threads: options.jobs)
        var discovery = Accounting()
        discovery.files = discoveryErrors.count
        discovery.inputErrors = discoveryErrors
        merged.accounting.merge(discovery)

        progress?.phase = .joining
        let joined = (consume merged).joined(scope: options.previewScope, windows: options.windows)
        let attribution = joined.attributionResult(maxCampaigns: options.maxCampaigns)
        let exposure = joined.exposureResult(
            configuration: options.configuration, maxCampaigns: options.maxCampaigns, sequentialTuning: options.sequentialTuning)
        let accounting = joined.accounting
        // The reports need only the results: the joined state (every campaign's records, every
        // id's symbol) is released before they are rendered.
        _ = consume joined
        progress?.phase = .writing
        let wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let result = RunResult(accounting: accounting, attribution: attribution, exposure: exposure, wallSeconds: wallSeconds)
        if let output { try ReportWriter.writeAll(result, rejects: .spools(spools), to: output) }
        return result
    }

    /// Reads `files` on `jobs` threads and merges the partial states into one, for a `--state`
    /// run, which stores records rather than joining them. Returns the merged state, the reject
    /// spools in report order and the lines read from each file.
    static func aggregate(
        _ files: [InputFile], jobs: Int, rejectsRaw: Bool, scratch: String?, progress: ProgressCounters? = nil,
        inflate: InflateBackend = .zlib
    ) throws(OutputError) -> (state: PartialState, spools: [String], linesPerFile: [Int]) {
        var (states, spools, lines) = try read(
            files, jobs: jobs, rejectsRaw: rejectsRaw, scratch: scratch, progress: progress, inflate: inflate,
            into: PartialState.self)
        progress?.phase = .merging
        // Merge into the largest partial, so the fewest symbols and records are moved, releasing
        // each partial as it is merged.
        states.sort { $0.symbols.count < $1.symbols.count }
        var merged = states.popLast() ?? PartialState()
        while let next = states.popLast() { merged.merge(consume next) }
        return (merged, spools, lines)
    }

    /// Reads `files` on `jobs` threads, each file on one thread (two when threads outnumber
    /// files) into that thread's partial state; a thread with no file left takes blocks of lines
    /// from the files still being read (`LineBlockExchange`). Returns the partial states, the
    /// reject spools in report order (file name byte-wise, then input position; a file's
    /// segments in order) and the lines read from each file.
    static func read<State: WorkerState>(
        _ files: [InputFile], jobs: Int, rejectsRaw: Bool, scratch: String?, progress: ProgressCounters?,
        inflate: InflateBackend, chunkSize: Int = DecompressingReader.defaultChunkSize, into _: State.Type
    ) throws(OutputError) -> (partials: [State], spools: [String], linesPerFile: [Int]) {
        let workers = max(1, min(jobs, files.count))
        // With fewer files than threads, each file is inflated and parsed on two threads.
        let pipelined = jobs > files.count
        let exchange = workers > 1 && !pipelined ? LineBlockExchange() : nil
        let nextFile = Atomic<Int>(0)
        let partials = Mutex<[(State, OutputError?)]>([])
        let linesPerFile = Mutex([Int](repeating: 0, count: files.count))
        let segmentsPerFile = Mutex([Int](repeating: 1, count: files.count))
        let spoolPath: @Sendable (Int, Int) -> String = { file, segment in
            scratch.map { "\($0)/rejects-\(file)-\(segment).ndjson" } ?? "/dev/null"
        }
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var processor = FileProcessor(
                rejectsRaw: rejectsRaw, progress: progress, pipelined: pipelined, chunkSize: chunkSize, inflate: inflate)
            var state = State()
            var failure: OutputError?
            /// Runs `work` on lines of `file` that reject into `spool`, then closes it; counts the
            /// lines read as the file's and keeps the failure.
            func countingLines(of file: Int, closing spool: RejectSpool, _ work: () throws(OutputError) -> Void) {
                let linesBefore = state.accounting.lines
                do throws(OutputError) {
                    try work()
                    try spool.close()
                } catch {
                    failure = error
                }
                linesPerFile.withLock { [lines = state.accounting.lines] in $0[file] += lines - linesBefore }
            }
            exchange?.readerStarted()
            while failure == nil {
                let index = nextFile.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { break }
                let spool = RejectSpool(path: spoolPath(index, 0))
                let sharing = exchange.map { FileSharing(exchange: $0, file: index) { RejectSpool(path: spoolPath(index, $0)) } }
                countingLines(of: index, closing: spool) { () throws(OutputError) in
                    let segments = try processor.process(files[index], into: &state, rejects: spool, sharing: sharing)
                    segmentsPerFile.withLock { $0[index] = segments }
                }
            }
            if let exchange {
                exchange.readerFinished()
                // Blocks taken after a failure are dropped: the run fails with it.
                while let block = exchange.take() {
                    guard failure == nil else { continue }
                    let spool = RejectSpool(path: spoolPath(block.file, block.segment))
                    countingLines(of: block.file, closing: spool) { () throws(OutputError) in
                        try processor.process(block, of: files[block.file], into: &state, rejects: spool)
                    }
                }
            }
            let finished = (state, failure)
            partials.withLock { $0.append(finished) }
        }
        let finished = partials.withLock { take(&$0, []) }
        if let failure = finished.lazy.compactMap(\.1).first { throw failure }
        let states = finished.map(\.0)
        let lines = linesPerFile.withLock { $0 }
        guard scratch != nil else { return (states, [], lines) }
        let order = files.indices.sorted {
            RejectRecord.fileOrder(files[$0].displayName, $0) < RejectRecord.fileOrder(files[$1].displayName, $1)
        }
        let segments = segmentsPerFile.withLock { $0 }
        let spools = order.flatMap { file in (0..<segments[file]).map { spoolPath(file, $0) } }
            .filter { FileManager.default.fileExists(atPath: $0) }
        return (states, spools, lines)
    }
}
