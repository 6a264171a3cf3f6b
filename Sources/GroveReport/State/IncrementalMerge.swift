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
    private let sealing: TextSealing
    /// The last row stored before this run: the run's own rows are never read back as stored.
    private let lastStoredRow: Int64
    /// The stored records of S.
    private var before = RecordDecoder()
    /// Key hashes whose rows were read into `before`.
    private var loaded = Set<Int64>()

    init(into store: StateStore) throws(StateError) {
        self.store = store
        sealing = TextSealing(salt: store.salt)
        lastStoredRow = try store.lastRecordID()
    }

    /// Merges `fresh` (this run's partial state, not yet joined) into the state; returns the
    /// number of preview or consent-denied events that reached the analysis (the leak check).
    mutating func merge(_ fresh: consuming PartialState) throws(StateError) -> Int {
        var rows: [(key: [UInt8], value: [UInt8])] = []
        var sealed = RecordDecoder()
        var totals = RecordDecoder()
        for (key, value) in StateRecordText.split(RecordEncoder.encode(fresh, sealing: sealing)) {
            if StateSchema.totalKinds.contains(StateRecordText.kind(of: key)) {
                try StateRecordText.read(key, value, into: &totals, path: store.path)
            } else {
                try StateRecordText.read(key, value, into: &sealed, path: store.path)
                rows.append((key, value))
            }
        }
        // Every lookup of a phase is one sorted batch: SQLite then reads each page once.
        try load(rows.map { StateKeyHash.of($0.key) })
        try loadClickComponents(also: sealed.state)
        try loadUnitComponents(also: sealed.state)
        try store.appendRecordRows(rows)
        try store.addLinks(Self.links(of: sealed.state))
        try mergeTotals(totals)
        var changes: [PreviewScope: [PartialState]] = [:]
        for scope in PreviewScope.allCases {
            changes[scope, default: []].append(Self.aggregates(of: before.state, scope: scope, sign: -1).state)
        }
        var after = before.state
        before = RecordDecoder()
        after.merge(sealed.state)
        var leaked = 0
        for scope in PreviewScope.allCases {
            let aggregates = Self.aggregates(of: after, scope: scope, sign: 1)
            changes[scope, default: []].append(aggregates.state)
            leaked = aggregates.leaked
        }
        for (scope, deltas) in changes { try update(scope: scope, with: deltas) }
        return leaked
    }

    /// Adds this run's totals records to the stored ones.
    private func mergeTotals(_ fresh: RecordDecoder) throws(StateError) {
        var totals = fresh
        try read(store.totals(), into: &totals)
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

    /// Reads the stored records whose keys have these hashes into `before` (each hash once), and
    /// rewrites a record stored in many rows as a single row.
    private mutating func load(_ hashes: [Int64]) throws(StateError) {
        let rows = try store.recordRows(hashes: hashes.filter { loaded.insert($0).inserted }, through: lastStoredRow)
        for row in rows { try StateRecordText.read(row.key, row.value, into: &before, path: store.path) }
        for (key, keyRows) in Dictionary(grouping: rows, by: \.key) where keyRows.count >= Self.compactionRows {
            var record = RecordDecoder()
            for row in keyRows { try StateRecordText.read(row.key, row.value, into: &record, path: store.path) }
            // The rows hold sealed text already: encoding without sealing keeps it as it is.
            guard let merged = StateRecordText.split(RecordEncoder.encode(record.state)).first(where: { $0.0 == key }) else { continue }
            for row in keyRows { try store.deleteRecordRow(id: row.id) }
            try store.appendRecordRows([merged])
        }
    }

    /// This run's opens linked to the clicks their originals name, and its install records and
    /// orders to the units they name. A merged record's click or units are those of one of its
    /// rows, so linking every row's keeps every link a later night needs.
    private static func links(of fresh: PartialState) -> Set<StateKeyHash.Link> {
        let symbols = fresh.symbols
        var links = Set<StateKeyHash.Link>()
        let opens = fresh.attribution.opens
        for (openID, open) in zip(opens.keys, opens.records) {
            guard let clickID = open.original.clickId else { continue }
            links.insert(StateKeyHash.Link(
                name: StateKeyHash.click(symbols.string(clickID)),
                record: StateKeyHash.of(StateRecordText.key("open", symbols.string(openID)))))
        }
        let installs = fresh.exposure.installs
        for (pair, install) in zip(installs.keys, installs.records) {
            let record = StateKeyHash.of(StateRecordText.key("install", symbols.string(pair.first), symbols.string(pair.second)))
            for decision in install.decisions.values {
                links.insert(StateKeyHash.Link(name: StateKeyHash.unit(unitText(decision.unit, symbols)), record: record))
            }
        }
        let orders = fresh.exposure.orders
        for (orderID, order) in zip(orders.keys, orders.records) {
            let record = StateKeyHash.of(StateRecordText.key("order", symbols.string(orderID)))
            for unit in units(of: order, symbols) { links.insert(StateKeyHash.Link(name: StateKeyHash.unit(unit), record: record)) }
        }
        return links
    }

    /// Every click named by a touched click, binding or open (its original as stored or as
    /// this run has it), with its binding and every open resolved to it.
    private mutating func loadClickComponents(also fresh: PartialState) throws(StateError) {
        var clickIDs = Set<ByteString>()
        for side in [before.state, fresh] {
            let attribution = side.attribution
            clickIDs.formUnion(attribution.clicks.keys.map(side.symbols.string))
            clickIDs.formUnion(attribution.bindings.keys.map(side.symbols.string))
            clickIDs.formUnion(attribution.opens.records.compactMap { $0.original.clickId.map(side.symbols.string) })
        }
        let records = clickIDs.flatMap { [StateKeyHash.of(StateRecordText.key("click", $0)), StateKeyHash.of(StateRecordText.key("binding", $0))] }
        try load(records + store.linkedRecords(clickIDs.map(StateKeyHash.click)))
    }

    /// Every unit named by a touched install record or order (as stored or as this run has
    /// it), with every install record that names it (in any campaign) and every order that
    /// names it.
    private mutating func loadUnitComponents(also fresh: PartialState) throws(StateError) {
        var units = Set<ByteString>()
        for side in [before.state, fresh] {
            for install in side.exposure.installs.records {
                units.formUnion(install.decisions.values.map { Self.unitText($0.unit, side.symbols) })
            }
            for order in side.exposure.orders.records {
                units.formUnion(Self.units(of: order, side.symbols))
            }
        }
        try load(store.linkedRecords(units.map(StateKeyHash.unit)))
    }

    /// The per-campaign results of `state` past the join stages under `scope`, added (`sign`
    /// 1) or taken back (-1), and the events its joins found leaked.
    private static func aggregates(of state: PartialState, scope: PreviewScope, sign: Int) -> (state: PartialState, leaked: Int) {
        let joined = state.joined(scope: scope)
        return (ReportAggregates(joined, sign: sign).state(symbols: joined.symbols), joined.totals.leaked)
    }

    /// Adds the changes of one scope's per-campaign results to the stored ones.
    private func update(scope: PreviewScope, with changes: [PartialState]) throws(StateError) {
        var aggregates = RecordDecoder()
        try read(store.aggregates(scope: scope), into: &aggregates)
        var total = aggregates.state
        for change in changes { total.merge(change) }
        let kept = ReportAggregates(JoinedState(afterJoins: total), sign: 1).state(symbols: total.symbols)
        try store.replaceAggregates(scope: scope, with: Self.rows(of: kept, kinds: StateSchema.aggregateKinds))
    }

    /// `install:<id>` or `customer:<id>`, the id as stored.
    private static func unitText(_ unit: UnitKey, _ symbols: SymbolTable) -> ByteString {
        ByteString(Array((unit.kind.word + ":").utf8) + symbols.string(unit.id).bytes)
    }

    /// The units an order's earliest line names.
    private static func units(of order: OrderRecord, _ symbols: SymbolTable) -> [ByteString] {
        let subject = order.earliest.subject
        var units = [unitText(UnitKey(kind: .install, id: subject.installId), symbols)]
        if let customer = subject.customerId { units.append(unitText(UnitKey(kind: .customer, id: customer), symbols)) }
        return units
    }
}
