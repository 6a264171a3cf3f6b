/// Rewrites the rows of a record as one: what a night does to a key it reads in many rows, and
/// what `grove-report state FILE --compact` does to every key, before rewriting each index as
/// one run and giving the freed pages back to the file system (`VACUUM`), for a cron job
/// between nights.
public enum StateCompaction {
    /// Adds to `merged` the merged record, one row, of each key of `rows` that has `minimumRows`
    /// rows or more (appended by the caller with its other rows, as one index run), and the
    /// addresses of its rows to `superseded`, which the caller deletes
    /// (`StateStore.deleteRecordRows`); returns how many keys were rewritten.
    @discardableResult
    static func rewrite(
        _ rows: [StateStore.RecordRow], minimumRows: Int, into merged: inout StateRowBatch, superseded: inout [Int64],
        store: StateStore, names: StateNames
    ) throws(StateError) -> Int {
        var rewritten = 0
        // Rows are grouped by key only under digests with enough rows: most keys have one.
        let crowded = rows.map(\.digest).repeated(atLeast: minimumRows)
        guard !crowded.isEmpty else { return 0 }
        let candidates = rows.filter { row in crowded.contains(sorted: row.digest) }
        for keyRows in Dictionary(grouping: candidates, by: \.key).values where keyRows.count >= minimumRows {
            var record = PartialState()
            try StateRows.read(keyRows.map { StateRows.Row(key: $0.key, value: $0.value) }, into: &record, names: names)
            let one = try StateRows.rows(of: record, names: names, digest: store.digest)
            guard one.reduce(0, { $0 + $1.count }) == 1 else { continue }
            superseded += keyRows.map(\.id)
            for batch in one { merged.append(contentsOf: batch) }
            rewritten += 1
        }
        return rewritten
    }

    /// `state FILE --compact`: every record stored in several rows rewritten as one, committed,
    /// then the file vacuumed. Takes the writer's lock like a run (waiting `lockWaitSeconds`),
    /// and migrates an older schema first. Returns the line to print, and a warning when the
    /// log could not be folded back into the file at close.
    public static func compact(path: String, lockWaitSeconds: Double) throws(StateError) -> (line: String, warning: StateWarning?) {
        guard case .state = try StateFile.inspect(path, lockWaitSeconds: lockWaitSeconds) else {
            throw .notAState(path: path, reason: "no such file")
        }
        let store = try StateStore(path: path, lockWaitSeconds: lockWaitSeconds)
        let bytesBefore = try store.fileBytes()
        let names = StateNames(store: store)
        let digests = try store.digestsOfKeysInSeveralRows()
        var rewritten = 0
        var merged = StateRowBatch()
        var superseded: [Int64] = []
        // A few thousand keys at a time, so memory stays that of a batch and of the merged rows.
        for start in stride(from: 0, to: digests.count, by: 4096) {
            let batch = Array(digests[start..<min(start + 4096, digests.count)])
            rewritten += try rewrite(
                store.recordRows(hashes: batch, through: .max), minimumRows: 2, into: &merged, superseded: &superseded,
                store: store, names: names)
        }
        try store.deleteRecordRows(superseded)
        try store.appendRecordRows([merged])
        // Each index as one run, without the entries of the rows just deleted.
        try store.rebuildIndexes()
        try store.commit()
        try store.vacuum()
        let bytesAfter = try store.fileBytes()
        let line = "state '\(path)': \(rewritten) record\(rewritten == 1 ? "" : "s") stored in several rows rewritten as one; "
            + "\(bytesBefore) bytes before, \(bytesAfter) after"
        return (line, store.close())
    }
}
