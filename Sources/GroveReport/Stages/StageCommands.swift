import Foundation

/// The stage filters that let a distributed engine run the pipeline: `partial` turns one input
/// file into records, `merge` merges records of equal keys (and, right after a shuffle, runs a join
/// stage), `render` writes the reports from the final records. The same partial states, merges and
/// join stages as `run`, serialized.
public enum StageCommands {
    /// Reads one input file from standard input (named `name`, input number `index`) and writes
    /// its records to standard output, each reject's as soon as it is found.
    public static func partial(name: String, index: Int, rejectsRaw: Bool) throws(OutputError) {
        var state = PartialState()
        var processor = FileProcessor(rejectsRaw: rejectsRaw)
        let rejects = RejectStream(inputIndex: index)
        try processor.process(InputFile(displayName: name, path: nil), into: &state, rejects: rejects)
        try rejects.output.write(RecordEncoder.encode(state))
        try rejects.output.flush()
    }

    /// Merges the records on standard input and runs join stage `join` when given (the bind
    /// window acts in stage 2, the conversion window in stage 3).
    public static func merge(join: Int?, scope: PreviewScope, windows: AnalysisWindows = .init()) throws(RecordError) -> [UInt8] {
        var state = try readRecords()
        switch join {
        case 1?: state.joinStage1(scope: scope)
        case 2?: state.joinStage2(windows: windows)
        case 3?: state.joinStage3(windows: windows)
        default: break
        }
        return RecordEncoder.encode(state)
    }

    /// Writes the reports of the final records on standard input, as `run` would have. The
    /// output directory is locked first, so a busy one is reported before any input is read.
    public static func render(
        to directory: String, configuration: Configuration?, maxCampaigns: Int = RunOptions.defaultMaxCampaigns,
        sequentialTuning: Int = RunOptions.defaultSequentialTuning,
        rejectsRaw: Bool, wallSeconds: Double, lockWaitSeconds: Double
    ) throws(StageFailure) -> RunResult {
        let output: OutputDirectory
        do throws(OutputError) {
            output = try OutputDirectory(path: directory, lockWaitSeconds: lockWaitSeconds)
        } catch {
            throw .output(error)
        }
        defer { output.discard() }
        var records: PartialState
        do throws(RecordError) {
            records = try readRecords()
        } catch {
            throw .records(error)
        }
        let rejected = take(&records.rejects, [])
        let state = JoinedState(afterJoins: consume records)
        let result = RunResult(
            accounting: state.accounting, attribution: state.attributionResult(maxCampaigns: maxCampaigns),
            exposure: state.exposureResult(configuration: configuration, maxCampaigns: maxCampaigns, sequentialTuning: sequentialTuning),
            wallSeconds: wallSeconds)
        // As in `run`: the records are released before the reports are rendered.
        _ = consume state
        do throws(OutputError) {
            let rejects = rejected.sorted(by: RejectRecord.precedes).flatMap { $0.ndjsonLine(includeRaw: rejectsRaw) }
            try ReportWriter.writeAll(result, rejects: .lines(rejects), to: output)
        } catch {
            throw .output(error)
        }
        return result
    }

    /// Reads every record line on standard input into one state.
    private static func readRecords() throws(RecordError) -> PartialState {
        var decoder = RecordDecoder()
        var splitter = LineSplitter(maximumLineLength: Int.max)
        var failure: RecordError?
        let read = { (line: SplitLine) in
            guard failure == nil, case .line(let bytes, _, _) = line, !bytes.isEmpty else { return }
            do throws(RecordError) {
                try decoder.read(ArraySlice(bytes))
            } catch {
                failure = error
            }
        }
        let (_, inputError) = DecompressingReader().read(.standardInput) { splitter.feed($0, read) }
        splitter.finish(complete: inputError == nil, read)
        if let inputError { throw RecordError(line: 0, problem: "cannot read standard input: \(inputError.error)") }
        if let failure { throw failure }
        return decoder.state
    }
}

/// Why a stage filter stopped: records it could not read, or output it could not write.
public enum StageFailure: Error, CustomStringConvertible {
    case records(RecordError)
    case output(OutputError)

    public var description: String {
        switch self {
        case .records(let failure): failure.description
        case .output(let failure): failure.description
        }
    }
}

/// `partial`'s rejects, written to standard output as `rej` records as they are found.
private final class RejectStream: RejectSink {
    let inputIndex: Int
    var output = StandardOutput()

    init(inputIndex: Int) {
        self.inputIndex = inputIndex
    }

    func append(_ record: RejectRecord, includeRaw: Bool) throws(OutputError) {
        var record = record
        record.inputIndex = inputIndex
        if !includeRaw { record.raw = nil }
        try output.write(RecordEncoder.reject(record))
    }

    /// Nothing to end: standard output stays open for the records `partial` writes after the rejects.
    func close() throws(OutputError) {}
}
