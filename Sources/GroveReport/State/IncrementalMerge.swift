/// Merges one run's partial state into a state file, reading and rewriting only what the run's
/// lines touch and what depends on them.
///
/// Every report figure is a sum of contributions of *components*: a click with the opens and
/// binding resolved to it, an open without a click, an install of a campaign, a unit of a
/// campaign with its decisions and orders. The run loads S, the records of every component that
/// holds a record it touches, twice: as stored (`before`) and with its lines merged in
/// (`after`). Joining each and taking the difference gives exactly the change of every figure:
/// components fully inside S change as they should, and partial ones are the same unchanged
/// records on both sides, so they cancel. The join code is the one `run` uses.
struct IncrementalMerge {
    private let store: StateStore
    private let sealing: TextSealing
    /// The stored records of S.
    private var before = RecordDecoder()
    /// Keys read into `before`.
    private var loaded = Set<[UInt8]>()
    /// Keys of the records this run's lines change.
    private var touched: [[UInt8]] = []

    init(into store: StateStore) {
        self.store = store
        sealing = TextSealing(salt: store.salt)
    }

    /// Merges `fresh` (this run's partial state, not yet joined) into the state; returns the
    /// number of preview or consent-denied events that reached the analysis (the leak check).
    mutating func merge(_ fresh: PartialState) throws(StateError) -> Int {
        // This run's records as they will be stored: sealed, keyed like the stored ones.
        var sealed = RecordDecoder()
        for (key, value) in StateRecordText.split(RecordEncoder.encode(fresh, sealing: sealing)) {
            touched.append(key)
            try StateRecordText.read(key, value, into: &sealed, path: store.path)
            try load(key)
        }
        try loadClickComponents(also: sealed.state)
        try loadUnitComponents(also: sealed.state)
        var after = before.state
        after.merge(sealed.state)
        var leaked = 0
        for scope in PreviewScope.allCases {
            var joinedBefore = before.state
            joinedBefore.joinAll(scope: scope)
            var joinedAfter = after
            joinedAfter.joinAll(scope: scope)
            leaked = joinedAfter.grona.totals.leaked
            try update(scope: scope, adding: joinedAfter, removing: joinedBefore)
        }
        try write(after)
        return leaked
    }

    /// Reads a stored record into `before`, once.
    private mutating func load(_ key: [UInt8]) throws(StateError) {
        guard loaded.insert(key).inserted, let stored = try store.record(key: key) else { return }
        try StateRecordText.read(key, stored, into: &before, path: store.path)
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
        for clickID in clickIDs.sorted() {
            try load(StateRecordText.key("click", clickID))
            try load(StateRecordText.key("bind", clickID))
            for open in try store.openKeys(clickID: clickID) { try load(open) }
        }
    }

    /// Every unit named by a touched install record or order (as stored or as this run has
    /// it), with every install record that names it (in any campaign) and every order that
    /// names it.
    private mutating func loadUnitComponents(also fresh: PartialState) throws(StateError) {
        var units = Set<ByteString>()
        for side in [before.state, fresh] {
            for install in side.grona.installs.records {
                units.formUnion(install.decisions.values.map { Self.unitText($0.unit, side.symbols) })
            }
            for order in side.grona.orders.records {
                units.formUnion(Self.units(of: order, side.symbols))
            }
        }
        for unit in units.sorted() {
            for install in try store.memberKeys(unit: unit, orders: false) { try load(install) }
            for order in try store.memberKeys(unit: unit, orders: true) { try load(order) }
        }
    }

    /// Adds the joined contributions of S after the run and takes back those before it.
    private func update(scope: PreviewScope, adding joinedAfter: PartialState, removing joinedBefore: PartialState) throws(StateError) {
        var aggregates = RecordDecoder()
        for (key, value) in try store.aggregates(scope: scope) {
            try StateRecordText.read(key, value, into: &aggregates, path: store.path)
        }
        var total = aggregates.state
        total.merge(ReportAggregates(joinedAfter, sign: 1).state(symbols: joinedAfter.symbols))
        total.merge(ReportAggregates(joinedBefore, sign: -1).state(symbols: joinedBefore.symbols))
        let kept = ReportAggregates(total, sign: 1).state(symbols: total.symbols)
        try store.replaceAggregates(scope: scope, with: StateRecordText.split(RecordEncoder.encode(kept)).filter {
            ["attr", "cv", "cstat", "atot"].contains(StateRecordText.kind(of: $0.0))
        })
    }

    /// Stores the touched records as merged, and indexes the clicks and units they name.
    private func write(_ state: PartialState) throws(StateError) {
        let symbols = state.symbols
        let touchedKeys = Set(touched)
        for (key, value) in StateRecordText.split(RecordEncoder.encode(state, sealing: sealing)) where touchedKeys.contains(key) {
            try store.putRecord(kind: StateRecordText.kind(of: key), key: key, value: value)
        }
        let opens = state.attribution.opens
        for (openID, open) in zip(opens.keys, opens.records) {
            let key = StateRecordText.key("open", symbols.string(openID))
            guard touchedKeys.contains(key), let clickID = open.original.clickId else { continue }
            try store.indexOpen(key: key, clickID: symbols.string(clickID))
        }
        let installs = state.grona.installs
        for (pair, install) in zip(installs.keys, installs.records) {
            let key = StateRecordText.key("inst", symbols.string(pair.first), symbols.string(pair.second))
            guard touchedKeys.contains(key) else { continue }
            for decision in install.decisions.values {
                try store.indexUnit(Self.unitText(decision.unit, symbols), member: key, order: false)
            }
        }
        let orders = state.grona.orders
        for (orderID, order) in zip(orders.keys, orders.records) {
            let key = StateRecordText.key("order", symbols.string(orderID))
            guard touchedKeys.contains(key) else { continue }
            for unit in Self.units(of: order, symbols) { try store.indexUnit(unit, member: key, order: true) }
        }
    }

    /// `install:<id>` or `customer:<id>`, the id as stored.
    private static func unitText(_ unit: UnitKey, _ symbols: SymbolTable) -> ByteString {
        ByteString(Array((unit.kind == .install ? "install:" : "customer:").utf8) + symbols.string(unit.id).bytes)
    }

    /// The units an order's earliest line names.
    private static func units(of order: OrderRecord, _ symbols: SymbolTable) -> [ByteString] {
        let subject = order.earliest.subject
        var units = [unitText(UnitKey(kind: .install, id: subject.installId), symbols)]
        if let customer = subject.customerId { units.append(unitText(UnitKey(kind: .customer, id: customer), symbols)) }
        return units
    }
}
