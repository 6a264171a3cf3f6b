import Foundation

/// Reads one input file line by line into a partial state: decompress, split, classify, count,
/// aggregate, and spool the rejects.
///
/// One per worker thread: it reuses its JSON buffers across lines and files.
struct FileProcessor {
    private var classifier = LineClassifier()
    /// The lines read but not yet classified: at most a batch, all of one chunk.
    private var batch = LineBatch()
    private var lookahead = EventLookahead()
    private let reader: DecompressingReader
    private let rejectsRaw: Bool
    private let progress: ProgressCounters?
    /// Decompress on a thread of its own, handing chunks over through a bounded queue, so that
    /// inflating and parsing one file use two cores.
    private let pipelined: Bool

    init(
        rejectsRaw: Bool, progress: ProgressCounters? = nil, pipelined: Bool = false,
        chunkSize: Int = DecompressingReader.defaultChunkSize, inflate: InflateBackend = .zlib
    ) {
        self.rejectsRaw = rejectsRaw
        self.progress = progress
        self.pipelined = pipelined
        self.reader = DecompressingReader(chunkSize: chunkSize, backend: inflate)
    }

    /// Adds every line of `file` to `state`, and its rejects to the `rejects` spool, or to
    /// `state.rejects` without one. With `sharing`, whole lines go to a worker waiting for work
    /// whenever one does; returns the number of reject segments the file's rejects then take.
    @discardableResult
    mutating func process<State: WorkerState>(
        _ file: InputFile, into state: inout State, rejects: (any RejectSink)?, sharing: FileSharing? = nil
    ) throws(OutputError) -> Int {
        var splitter = LineSplitter()
        var spoolError: OutputError?
        var rejects = rejects
        var segment = 0
        let progress = self.progress
        let (counts, error) = Self.read(file, with: reader, pipelined: pipelined) { chunk in
            let acceptedBefore = state.accounting.acceptedTotal
            if let sharing, sharing.exchange.helperWaiting, var block = splitter.cutBlock(chunk, file: sharing.file) {
                block.segment = segment + 1
                if sharing.exchange.offer(block) {
                    // The helper's rejects come after the ones so far and before the ones to come.
                    segment += 2
                    Self.close(rejects, error: &spoolError)
                    rejects = sharing.spool(segment)
                } else {
                    classify(block, of: file, into: &state, rejects: rejects, error: &spoolError)
                }
            } else {
                splitter.feed(chunk) { line in
                    record(line, of: file, into: &state, rejects: rejects, error: &spoolError)
                }
                classifyBatch(of: file, into: &state, rejects: rejects, error: &spoolError)
            }
            progress?.addChunk(bytes: chunk.count, events: state.accounting.acceptedTotal - acceptedBefore)
        }
        splitter.finish(complete: error == nil) { line in
            record(line, of: file, into: &state, rejects: rejects, error: &spoolError)
        }
        classifyBatch(of: file, into: &state, rejects: rejects, error: &spoolError)
        lookahead.flush(into: &state)
        if segment > 0 { Self.close(rejects, error: &spoolError) }
        state.accounting.files += 1
        state.accounting.bytes.read += counts.read
        state.accounting.bytes.decompressed += counts.decompressed
        if let error { state.accounting.inputErrors.append(error) }
        progress?.finishFile()
        if let spoolError { throw spoolError }
        return segment + 1
    }

    /// Adds the lines of a block another worker cut from `file` to `state`, and its rejects to
    /// `rejects`, as that worker would have.
    mutating func process<State: WorkerState>(
        _ block: LineBlock, of file: InputFile, into state: inout State, rejects: (any RejectSink)?
    ) throws(OutputError) {
        var spoolError: OutputError?
        let acceptedBefore = state.accounting.acceptedTotal
        classify(block, of: file, into: &state, rejects: rejects, error: &spoolError)
        lookahead.flush(into: &state)
        progress?.addChunk(bytes: 0, events: state.accounting.acceptedTotal - acceptedBefore)
        if let spoolError { throw spoolError }
    }

    /// Splits and classifies the lines of `block`.
    private mutating func classify<State: WorkerState>(
        _ block: LineBlock, of file: InputFile, into state: inout State, rejects: (any RejectSink)?,
        error: inout OutputError?
    ) {
        var splitter = LineSplitter(continuing: block)
        block.bytes.withUnsafeBufferPointer { bytes in
            splitter.feed(bytes) { line in record(line, of: file, into: &state, rejects: rejects, error: &error) }
            classifyBatch(of: file, into: &state, rejects: rejects, error: &error)
        }
    }

    /// Closes a spool the file is done with, keeping the first error.
    private static func close(_ rejects: (any RejectSink)?, error: inout OutputError?) {
        do throws(OutputError) {
            try rejects?.close()
        } catch let closeError {
            error = error ?? closeError
        }
    }

    /// Streams the decompressed chunks of `file` into `consume`, on this thread or, pipelined,
    /// from a reading thread.
    private static func read(
        _ file: InputFile, with reader: DecompressingReader, pipelined: Bool,
        into consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> (counts: ByteCounts, error: InputError?) {
        guard pipelined else { return reader.read(file, into: consume) }
        let queue = ChunkQueue()
        Thread.detachNewThread {
            let (counts, error) = reader.read(file) { queue.push($0) }
            queue.finish(counts, error)
        }
        while true {
            switch queue.pop() {
            case .success(let chunk):
                chunk.withUnsafeBufferPointer(consume)
                queue.recycle(consume chunk)
            case .failure(let ended): return (ended.counts, ended.error)
            }
        }
    }

    /// Adds one line to the batch, classifying the batch once it is full; a line too long is
    /// rejected at once, after the lines before it.
    private mutating func record<State: WorkerState>(
        _ split: SplitLine, of file: InputFile, into state: inout State, rejects: (any RejectSink)?,
        error: inout OutputError?
    ) {
        switch split {
        case .line(let bytes, let number, let offset):
            batch.append(bytes, number: number, offset: offset)
            if batch.isFull { classifyBatch(of: file, into: &state, rejects: rejects, error: &error) }
        case .tooLong(let number, let offset):
            classifyBatch(of: file, into: &state, rejects: rejects, error: &error)
            state.accounting.countRejection(.lineTooLong)
            spool(RejectRecord(file: file.displayName, line: number, offset: offset, reason: .lineTooLong),
                  into: &state, rejects: rejects, error: &error)
        }
    }

    /// Classifies the lines of the batch and puts each in its bucket, in order.
    private mutating func classifyBatch<State: WorkerState>(
        of file: InputFile, into state: inout State, rejects: (any RejectSink)?, error: inout OutputError?
    ) {
        guard !batch.isEmpty else { return }
        classifier.prepare(batch, &state.symbols)
        for index in 0..<batch.count {
            let bytes = batch.line(index)
            let outcome = classifier.outcome(ofLine: index, bytes, &state.symbols)
            state.accounting.count(outcome)
            switch outcome {
            case .accepted(let event):
                lookahead.add(event, to: &state)
            case .ignored:
                break
            case .rejected(let reason):
                let rejected = RejectRecord(
                    file: file.displayName, line: batch.number(index), offset: batch.offset(index), reason: reason,
                    raw: rejectsRaw ? RawLineRedactor.redact(bytes) : nil)
                spool(rejected, into: &state, rejects: rejects, error: &error)
            }
        }
        batch.removeAll()
    }

    /// Writes a rejected line to the spool, or to `state.rejects` without one; keeps the first
    /// spool error to throw once the file is done.
    private func spool<State: WorkerState>(
        _ rejected: RejectRecord, into state: inout State, rejects: (any RejectSink)?, error: inout OutputError?
    ) {
        guard let rejects else {
            state.rejects.append(rejected)
            return
        }
        do throws(OutputError) {
            try rejects.append(rejected, includeRaw: rejectsRaw)
        } catch let spoolError {
            error = error ?? spoolError
        }
    }
}

/// How the reading of one file is shared with workers that have none left (`LineBlockExchange`):
/// the file's index, and its reject spool of each segment. The reader's rejects are segments 0,
/// 2, 4…; a block handed over between two of them writes the odd segment in between.
struct FileSharing {
    let exchange: LineBlockExchange
    let file: Int
    let spool: (Int) -> RejectSpool
}
