/// Merges one run's partial state into a state file, reading only the records the run's lines
/// touch and what depends on them, and appending the run's own records.
///
/// Every report figure is a sum of contributions of *components*: a click with the opens and
/// binding resolved to it, an open without a click, an install of a campaign, a unit of a
/// campaign with its decisions and orders. The run loads S, the records of every component that
/// holds a record it touches, twice: as stored (`before`) and with its lines merged in
/// (`after`). Joining each and taking the difference gives exactly the change of every figure:
/// components fully inside S change as they should, and partial ones are the same unchanged
/// records on both sides, so they cancel. The join code is the one `run` uses.
struct IncrementalMerge {
    /// A record stored in this many rows or more is rewritten as one when a run reads it, so
    /// keys that every night touches (an active install) stay cheap to read.
    static let compactionRows = 8

    private let store: StateStore
    private let digest: StateKeyDigest
    private let names: StateNames
    private let sealing: TextSealing
    /// The last row stored before this run: the run's own rows are never read back as stored.
    private let lastStoredRow: Int64
    /// The windows the joins apply (SPEC section 10.1).
    private let windows: AnalysisWindows
    /// The preview scope the run reports, the only one whose results the state keeps.
    private let scope: PreviewScope
    /// The stored records of S.
    private var before = PartialState()
    /// Key digests whose rows were read into `before`, sorted: eight bytes a digest (a 2M-event
    /// night asks for 2.5M; a hash set of them was 40 MB of the night's peak).
    private var loaded: [Int64] = []
    /// Stored rows read so far: what the night cost in the state, recorded with the run.
    private(set) var rowsRead = 0
    /// Records read in many rows, rewritten as one: appended with the run's own rows.
    private var compacted = StateRowBatch()
    /// The addresses of the rows those records were read from: deleted after the loads, block
    /// by block, beside the joins (each deleted as it was found rewrote its block in the middle
    /// of a load, and read it again once the load's reads had pushed it out of SQLite's cache).
    private var superseded: [Int64] = []

    init(into store: StateStore, windows: AnalysisWindows = .init(), scope: PreviewScope) throws(StateError) {
        self.store = store
        self.windows = windows
        self.scope = scope
        digest = store.digest
        names = StateNames(store: store)
        try names.loadAll(upTo: Self.namesInMemory)
        sealing = TextSealing(salt: store.salt)
        lastStoredRow = try store.lastRecordID()
    }

    /// Merges `fresh` (this run's partial state, not yet joined) into the state; returns the
    /// number of preview or consent-denied events that reached the analysis (the leak check).
    mutating func merge(_ fresh: consuming PartialState) throws(StateError) -> Int {
        var timer = StatePhaseTimer()
        var sealed = sealing.sealed(fresh)
        timer.lap("seal")
        // The totals over all keys are kept merged apart from the per-key records a night loads.
        try mergeTotals(Self.takeTotals(from: &sealed))
        var rows = try StateRows.rows(of: sealed, names: names, digest: digest)
        timer.lap("encode rows")
        // Inserted before the loads, so the rows' bytes are let go before the stored records
        // come in (a night's peak memory); indexed after them, with the rows compaction rewrites,
        // as one run, so the loads look up only stored rows. The night's links are made from the
        // rows on the other core meanwhile (`linked` shares the batches' bytes; the insert's sort
        // copies only their entries), and added before the loads too, for the same memory. The
        // loads pass by the run they make (its links name this night's records, which it holds).
        var entries: [StateIndexEntry] = []
        do {
            let linked = rows
            var links: [StateIndexEntry] = []
            var inserted: Result<[StateIndexEntry], StateError> = .success([])
            let (store, digest, night) = (self.store, digest, sealed)
            Parallel.both {
                links = Self.links(of: night, rows: linked, digest: digest)
            } and: {
                inserted = Result { () throws(StateError) in try store.insertRecordRows(take(&rows, [])) }
            }
            entries = try inserted.get()
            try store.addLinks(take(&links, []))
        }
        timer.lap("append rows")
        // Every lookup of a phase is one sorted batch: SQLite then reads each page once.
        try load(entries.map(\.hash))
        timer.lap("load touched keys", rows: rowsRead)
        // The click and the unit components of what the first load found and of the night's
        // records, in one load: neither asks after the other's records (a click component holds
        // clicks, bindings and opens, which name no unit), and each load is a pass over the key
        // index's runs.
        var units = try unitComponents(also: sealed)
        let unitRecords = units.resolve(try store.storedLinks(of: units.unitDigests))
        try load(clickComponents(also: sealed) + unitRecords, keeping: units.needs)
        timer.lap("load components", rows: rowsRead)
        // What the loads kept (every digest asked for) goes before the joins.
        loaded = []
        // The night's index run (SQLite, and a merge of runs every few nights) is written on
        // a thread of its own while the joins, which ask SQLite nothing, run on every core.
        var indexing: StateError?
        var compactedRows = [take(&compacted, StateRowBatch())]
        var supersededRows = take(&superseded, [])
        var joins: (changes: [PartialState], leaked: Int) = ([], 0)
        var (stored, night) = (take(&before, PartialState()), take(&sealed, PartialState()))
        let (store, scope, windows) = (self.store, scope, windows)
        Parallel.beside {
            do throws(StateError) {
                try store.deleteRecordRows(take(&supersededRows, []))
                entries += try store.insertRecordRows(take(&compactedRows, []))
                try store.indexRecordRows(take(&entries, []))
            } catch {
                indexing = error
            }
        } _: {
            let before = Self.aggregates(of: stored, scope: scope, windows: windows, sign: -1)
            // The stored records merged into the night's, the fewer into the more (a merge
            // costs what it takes in), and handed over: released as they are merged.
            night.merge(take(&stored, PartialState()))
            // Handed over: the join takes the records apart as it goes rather than copying them.
            let after = Self.aggregates(of: take(&night, PartialState()), scope: scope, windows: windows, sign: 1)
            joins = ([before.state, after.state], after.leaked)
        }
        if let indexing { throw indexing }
        timer.lap("index rows and joins")
        try update(with: joins.changes)
        timer.lap("update results")
        return joins.leaked
    }

    /// Moves the records of the totals kinds (`StateSchema.totalKinds`: the accounting, the
    /// per-campaign counters and the audit totals) out of `state`, into a state of their own.
    private static func takeTotals(from state: inout PartialState) -> PartialState {
        var totals = PartialState()
        totals.symbols = state.symbols
        totals.accounting = take(&state.accounting, Accounting())
        totals.exposure.counters = take(&state.exposure.counters, .init())
        totals.exposure.totals = take(&state.exposure.totals, .init())
        return totals
    }

    /// Adds this run's totals records to the stored ones.
    private func mergeTotals(_ fresh: PartialState) throws(StateError) {
        var totals = RecordDecoder()
        try read(store.totals() + Self.rows(of: fresh, kinds: StateSchema.totalKinds), into: &totals)
        try store.replaceTotals(with: Self.rows(of: totals.state, kinds: StateSchema.totalKinds))
    }

    /// Decodes stored rows into `decoder`, merging them with what it holds.
    private func read(_ rows: [([UInt8], [UInt8])], into decoder: inout RecordDecoder) throws(StateError) {
        for (key, value) in rows { try StateRecordText.read(key, value, into: &decoder, path: store.path) }
    }

    /// The rows of `state`'s records of these kinds, as they are stored.
    private static func rows(of state: PartialState, kinds: Set<String>) -> [([UInt8], [UInt8])] {
        StateRecordText.split(RecordEncoder.encode(state)).filter { kinds.contains(StateRecordText.kind(of: $0.0)) }
    }

    /// Names a night reads into memory at its start, at most (`StateNames.loadAll`).
    static let namesInMemory = 50_000

    /// Chunks of digests a load fetches one after another, each decoded while the next is
    /// fetched.
    static let loadChunks = 4

    /// Reads the stored records whose keys have these digests into `before` (each once), and
    /// rewrites a record stored in many rows as a single row.
    ///
    /// A load is about half SQLite (the key index, the blocks) and half decoding the rows into
    /// records. With every name in memory, decoding asks SQLite nothing, so the digests are
    /// fetched in chunks and each chunk is decoded on the other core while the next is fetched.
    /// A key's rows share its digest, so they come in one chunk.
    private mutating func load(
        _ digests: consuming [Int64], keeping needed: (StateStore.RecordRow) -> Bool = { _ in true }
    ) throws(StateError) {
        // Sorted in place: a night of 2M events asks for millions.
        var wanted = digests
        wanted.radixSort()
        wanted.removeDuplicates()
        let (new, union) = wanted.partitioned(against: loaded)
        loaded = union
        let chunkSize = names.isComplete ? max(1, (new.count + Self.loadChunks - 1) / Self.loadChunks) : max(1, new.count)
        let chunks = stride(from: 0, to: new.count, by: chunkSize).map { Array(new[$0..<min($0 + chunkSize, new.count)]) }
        let (store, names, last) = (self.store, self.names, lastStoredRow)
        var records = take(&before, PartialState())
        defer { before = records }
        var fetched = try store.recordRows(hashes: chunks.first ?? [], through: last)
        for next in chunks.dropFirst().map(Optional.some) + [nil] {
            rowsRead += fetched.count
            let rows = fetched.filter(needed)
            var decoding: StateError?
            var fetching: Result<[StateStore.RecordRow], StateError> = .success([])
            func decode() {
                do throws(StateError) {
                    try StateRows.read(rows.lazy.map { StateRows.Row(key: $0.key, value: $0.value) }, into: &records, names: names)
                } catch {
                    decoding = error
                }
            }
            func fetch() {
                guard let next else { return }
                do throws(StateError) {
                    fetching = .success(try store.recordRows(hashes: next, through: last))
                } catch {
                    fetching = .failure(error)
                }
            }
            if names.isComplete {
                Parallel.both(decode, and: fetch)
            } else {
                decode()
                fetch()
            }
            if let decoding { throw decoding }
            fetched = try fetching.get()
            try StateCompaction.rewrite(
                rows, minimumRows: Self.compactionRows, into: &compacted, superseded: &superseded, store: store, names: names)
        }
    }

    /// This run's opens linked to the clicks their originals name, its install records to the
    /// units they name, and its orders to the units they name by the orders link, by the digests of their rows in `rows` (the batches
    /// `StateRows.rows(of: fresh)` made). A merged record's click or units are those of one of
    /// its rows, so linking every row's keeps every link a later night needs.
    static func links(of fresh: PartialState, rows: [StateRowBatch], digest: StateKeyDigest) -> [StateIndexEntry] {
        let symbols = fresh.symbols
        var links: [StateIndexEntry] = []
        let opens = StateRows.place(of: OpenRecord.self, in: fresh)
        for (index, open) in fresh.attribution.opens.records.enumerated() {
            guard let clickID = open.original.clickId else { continue }
            let record = rows[opens.batch].entries[opens.first + index].digest
            links.append(StateIndexEntry(hash: digest.click(symbols.bytes(clickID)), target: record))
        }
        let installs = StateRows.place(of: InstallRecord.self, in: fresh)
        for (index, install) in fresh.exposure.installs.records.enumerated() {
            let record = rows[installs.batch].entries[installs.first + index].digest
            for decision in install.decisions.values {
                links.append(StateIndexEntry(hash: unitDigest(decision.unit, symbols, digest), target: record))
            }
        }
        let orders = StateRows.place(of: OrderRecord.self, in: fresh)
        for (index, order) in fresh.exposure.orders.records.enumerated() {
            let record = rows[orders.batch].entries[orders.first + index].digest
            for unit in units(of: order) { links.append(StateIndexEntry(hash: ordersDigest(unit, symbols, digest), target: record)) }
        }
        return links
    }

    /// The digests of the records of every click named by a touched click, binding or open (its
    /// original as stored or as this run has it): its own, its binding's and those of every open
    /// resolved to it.
    private func clickComponents(also fresh: PartialState) throws(StateError) -> [Int64] {
        var clicks: [Int64] = []
        var records: [Int64] = []
        records.reserveCapacity(before.attribution.clicks.count + fresh.attribution.clicks.count)
        for side in [before, fresh] {
            var writer = StateRowWriter(symbols: side.symbols, names: names)
            let attribution = side.attribution
            // Each id once (most clicks are named by their binding and opens too), with whether
            // it keys a click (bit 0) or a binding (bit 1) on this side: the first load asked for
            // the digests of those rows, so only the others are asked for.
            var named = attribution.clicks.keys.map { UInt64($0.raw) << 2 | 1 } + attribution.bindings.keys.map { UInt64($0.raw) << 2 | 2 }
                + attribution.opens.records.compactMap { $0.original.clickId.map { UInt64($0.raw) << 2 } }
            named.radixSort()
            var next = 0
            while next < named.count {
                let raw = named[next] >> 2
                var keyed: UInt64 = 0
                while next < named.count, named[next] >> 2 == raw {
                    keyed |= named[next] & 3
                    next += 1
                }
                let id = Symbol(raw: UInt32(raw))
                clicks.append(digest.click(side.symbols.bytes(id)))
                guard keyed != 3 else { continue }
                let (click, binding) = try StateRows.clickAndBindingDigests(id, writer: &writer, digest: digest)
                if keyed & 1 == 0 { records.append(click) }
                if keyed & 2 == 0 { records.append(binding) }
            }
        }
        records += try store.storedLinkedRecords(take(&clicks, []))
        return records
    }

    /// The request for the component of every unit named by a touched install record, in its
    /// campaign, and by a touched order, in every campaign (as stored or as this run has it):
    /// the install records of that campaign that name the unit, and every order that names it
    /// (`UnitComponentRequest`). A record's own install is a unit whose only install record in
    /// its campaign is that record, loaded already, so it asks for the unit's orders alone.
    private func unitComponents(also fresh: PartialState) throws(StateError) -> UnitComponentRequest {
        var request = UnitComponentRequest()
        for side in [before, fresh] {
            var asks = UnitComponentRequest.Asks()
            var campaigns = IntegerMap<Int64?>()
            let installs = side.exposure.installs
            for (key, install) in zip(installs.keys, installs.records) {
                for decision in install.decisions.values {
                    asks.ask(.orders, of: decision.unit, campaign: nil)
                    guard decision.unit != UnitKey(kind: .install, id: key.second) else { continue }
                    asks.ask(.installRecords, of: decision.unit, campaign: try campaignNumber(key.first, in: side.symbols, known: &campaigns))
                }
            }
            for order in side.exposure.orders.records {
                for unit in Self.units(of: order) {
                    asks.ask(.installRecords, of: unit, campaign: nil)
                    asks.ask(.orders, of: unit, campaign: nil)
                }
            }
            asks.add(to: &request, symbols: side.symbols, digest: digest)
        }
        return request
    }

    /// The state's number of a campaign, nil when it has none (no stored row names it).
    private func campaignNumber(_ campaign: Symbol, in symbols: SymbolTable, known: inout IntegerMap<Int64?>) throws(StateError) -> Int64? {
        if let number = known[Int64(campaign.raw)] { return number }
        let number = try names.storedNumber(of: symbols.bytes(campaign))
        known.insert(Int64(campaign.raw), number)
        return number
    }

    /// The per-campaign results of `state` past the join stages under `scope`, added (`sign`
    /// 1) or taken back (-1), and the events its joins found leaked.
    private static func aggregates(
        of state: consuming PartialState, scope: PreviewScope, windows: AnalysisWindows, sign: Int
    ) -> (state: PartialState, leaked: Int) {
        let joined = state.joined(scope: scope, windows: windows)
        return (ReportAggregates(joined, sign: sign).state(symbols: joined.symbols), joined.totals.leaked)
    }

    /// Adds the changes of the per-campaign results to the stored ones.
    private func update(with changes: [PartialState]) throws(StateError) {
        var aggregates = RecordDecoder()
        try read(store.aggregates(scope: scope), into: &aggregates)
        var total = aggregates.state
        for change in changes { total.merge(change) }
        let kept = ReportAggregates(JoinedState(afterJoins: total), sign: 1).state(symbols: total.symbols)
        try store.replaceAggregates(scope: scope, with: Self.rows(of: kept, kinds: StateSchema.aggregateKinds))
    }

    /// The link digest of a unit (`install:<id>` or `customer:<id>`, the id as stored) to its
    /// install records.
    private static func unitDigest(_ unit: UnitKey, _ symbols: SymbolTable, _ digest: StateKeyDigest) -> Int64 {
        digest.unit(unit.kind, symbols.bytes(unit.id))
    }

    /// The link digest of a unit to its orders.
    static func ordersDigest(_ unit: UnitKey, _ symbols: SymbolTable, _ digest: StateKeyDigest) -> Int64 {
        digest.orders(unit.kind, symbols.bytes(unit.id))
    }

    /// The units an order's earliest line names.
    static func units(of order: OrderRecord) -> [UnitKey] {
        let subject = order.earliest.subject
        var units = [UnitKey(kind: .install, id: subject.installId)]
        if let customer = subject.customerId { units.append(UnitKey(kind: .customer, id: customer)) }
        return units
    }
}
