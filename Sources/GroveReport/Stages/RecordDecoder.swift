/// Why a stage could not read its input; the message names the line.
public struct RecordError: Error, CustomStringConvertible {
    var line: Int
    var problem: String

    public var description: String { "record on input line \(line): \(problem)" }
}

/// Reads stage records (see `RecordEncoder`) into a partial state, merging records of equal keys.
///
/// Records come from another process, maybe damaged or hostile: every number is checked (counts
/// and values in 0...2^53−1, instants in the years 0001–9999, offsets and line numbers not
/// negative), and the sum of all counts read is kept below 2^62, so no merge of them can
/// overflow; a record that breaks a rule is refused with a `RecordError` instead of a trap.
struct RecordDecoder {
    private(set) var state = PartialState()
    private var lineNumber = 0
    private let limits = RecordLimits()

    /// Reads one record line (without its newline).
    mutating func read(_ line: ArraySlice<UInt8>) throws(RecordError) {
        lineNumber += 1
        guard let tab = line.firstIndex(of: 0x09),
              case .array(let keyValues)? = JSONValue.parse(Array(line[..<tab])),
              let value = JSONValue.parse(Array(line[(tab + 1)...]))
        else { throw failure("not KEY<TAB>VALUE with JSON on both sides") }
        let key = keyValues.compactMap { element -> String? in if case .string(let text) = element { return text } else { return nil } }
        guard key.count == keyValues.count, let kind = key.first else { throw failure("the key must be an array of strings") }
        guard value["v"] == .number(Double(RecordEncoder.formatVersion)) else {
            throw failure("format version \(value["v"].map { "\($0)" } ?? "missing"), expected \(RecordEncoder.formatVersion)")
        }
        var fields = Fields(value: value, line: lineNumber, limits: limits)
        try decode(kind: kind, key: Array(key.dropFirst()), &fields)
    }

    private func failure(_ problem: String) -> RecordError {
        RecordError(line: lineNumber, problem: problem)
    }

    private mutating func symbol(_ text: String) -> Symbol { state.symbols.intern(Array(text.utf8)) }

    /// The table as it is now, for merges' tie-breaks. Take it only after the last `symbol(_:)` of
    /// a record: a copy alive while interning would make the table copy itself.
    private var symbols: SymbolTable { state.symbols }

    private mutating func decode(kind: String, key: [String], _ fields: inout Fields) throws(RecordError) {
        switch (kind, key.count) {
        case ("acct", 0):
            var accounting = Accounting()
            accounting.accepted = try fields.integers("accepted", count: EventType.allCases.count)
            accounting.ignored = try fields.integers("ignored", count: IgnoreReason.allCases.count)
            for (reasonText, count) in try fields.object("rejected") {
                guard let reason = RejectReason(text: ByteString(reasonText)) else {
                    throw failure("unknown reject reason \(reasonText)")
                }
                accounting.rejected[reason] = try fields.integer(count)
            }
            accounting.files = try fields.integer("files")
            accounting.bytes.read = try fields.integer("bytes_read")
            accounting.bytes.decompressed = try fields.integer("bytes_decompressed")
            state.accounting.merge(accounting)
        case ("err", 3):
            var accounting = Accounting()
            guard let offset = Int(key[1]), (0...RecordLimits.maximumValue).contains(offset) else { throw failure("bad offset") }
            let error = InputError(file: key[0], error: key[2], offset: offset)
            let count = try fields.integer("n")
            try limits.addInputErrors(count, line: lineNumber)
            accounting.inputErrors = Array(repeating: error, count: count)
            state.accounting.merge(accounting)
        case ("rej", 3):
            guard let index = Int(key[1]), index >= 0, let line = Int(key[2]), (1...RecordLimits.maximumValue).contains(line),
                  let reason = RejectReason(text: ByteString(try fields.string("reason")))
            else { throw failure("bad reject") }
            let raw = try fields.optionalString("raw").map { Array($0.utf8) }
            state.rejects.append(RejectRecord(
                file: key[0], line: line, offset: try fields.value(number: "offset"), reason: reason, raw: raw, inputIndex: index))
        case ("click", 1):
            let utm = try fields.utm("utm", &state.symbols)
            let click = LinkClick(
                ts: try fields.instant("ts"), clickId: symbol(key[0]), appKey: symbol(try fields.string("appKey")),
                slug: symbol(try fields.string("slug")), route: try fields.route("route"), utm: utm)
            var record = ClickRecord(click)
            record.lines = try fields.integer("lines")
            state.attribution.clicks.upsert(click.clickId, { record }, { [symbols] in $0.merge(record, symbols: symbols) })
        case ("open", 1):
            let payload = try fields.payload(try fields.array("payload"), &state.symbols)
            let original = LinkOpen(
                ts: try fields.instant("ts"), openId: symbol(key[0]), appKey: payload.appKey, slug: payload.slug,
                clickId: try fields.optionalString("clickId").map { symbol($0) }, context: payload.context, utm: payload.utm)
            var entries: [ValueCounts<OpenPayload>.Entry] = []
            for entry in try fields.array("payloads") {
                guard case .array(let pair) = entry, pair.count == 2, case .array(let parts) = pair[0] else {
                    throw failure("bad payload count")
                }
                entries.append(.init(value: try fields.payload(parts, &state.symbols), lines: try fields.integer(pair[1])))
            }
            guard !entries.isEmpty else { throw failure("an open needs a payload") }
            var record = OpenRecord(original)
            record.payloads = ValueCounts(entries: entries)
            state.attribution.opens.upsert(original.openId, { record }, { [symbols] in $0.merge(record, symbols: symbols) })
        case ("bind", 1):
            let winner = ClickBind(ts: try fields.instant("ts"), clickId: symbol(key[0]), normalizedEmail: symbol(try fields.string("email")))
            var entries: [ValueCounts<Symbol>.Entry] = []
            for entry in try fields.array("emails") {
                guard case .array(let pair) = entry, pair.count == 2, case .string(let email) = pair[0] else {
                    throw failure("bad email count")
                }
                entries.append(.init(value: symbol(email), lines: try fields.integer(pair[1])))
            }
            guard !entries.isEmpty else { throw failure("a binding needs an email") }
            var record = BindingRecord(winner)
            record.emails = ValueCounts(entries: entries)
            state.attribution.bindings.upsert(winner.clickId, { record }, { [symbols] in $0.merge(record, symbols: symbols) })
        case ("camp", 1):
            var counters = CampaignCounters()
            counters.previewDecisions = try fields.integer("previewDecisions")
            counters.previewImpressions = try fields.integer("previewImpressions")
            counters.previewGrants = try fields.integer("previewGrants")
            counters.decisions = try fields.integer("decisions")
            counters.missingCustomer = try fields.integer("missingCustomer")
            counters.previewPairings = try fields.integer("previewPairings")
            counters.linkViolations = LinkViolations(counts: try fields.integers("linkViolations", count: 4))
            state.grona.counters.upsert(symbol(key[0]), { counters }, { [symbols] in $0.merge(counters, symbols: symbols) })
        case ("inst", 2):
            var install = InstallRecord()
            install.isPreviewInstall = try fields.bool("preview")
            for entry in try fields.array("decisions") {
                guard case .array(let parts) = entry, parts.count == 6 else { throw failure("bad decision") }
                install.add(InstallRecord.UnitDecision(
                    unit: try fields.unit(parts[0], parts[1], &state.symbols),
                    exposure: try fields.exposure(parts[2...4], &state.symbols), lines: try fields.integer(parts[5])))
            }
            for entry in try fields.array("impressions") {
                guard case .array(let parts) = entry, parts.count == 2 else { throw failure("bad impression") }
                let lines = try fields.integer(parts[1])
                install.impressions.update(symbol(try fields.string(parts[0])), default: 0) { $0 += lines }
            }
            install.grants = try fields.integer("grants")
            install.leaked = try fields.integer("leaked")
            let pair = SymbolPair(first: symbol(key[0]), second: symbol(key[1]))
            state.grona.installs.upsert(pair, { install }, { [symbols] in $0.merge(install, symbols: symbols) })
        case ("order", 1):
            let subject = GronaSubject(
                installId: symbol(try fields.string("installId")),
                customerId: try fields.optionalString("customerId").map { symbol($0) },
                consent: try fields.bool("denied") ? .denied : .unknown)
            let order = Order(
                ts: try fields.instant("ts"), subject: subject, orderId: symbol(key[0]),
                amountMinor: Int64(try fields.value(number: "amount")), isPreview: try fields.bool("preview"))
            let record = OrderRecord(earliest: order)
            state.grona.orders.upsert(order.orderId, { record }, { [symbols] in $0.merge(record, symbols: symbols) })
        case ("gtot", 0):
            var totals = GronaTotals()
            totals.preview = try fields.integers("preview", count: EventType.grona.count)
            totals.consentDenied = try fields.integers("denied", count: EventType.grona.count)
            totals.leaked = try fields.integer("leaked")
            guard let links = PreviewLinkCounts(cells: try fields.integers("links", count: PreviewLinkCounts.cellCount)) else {
                throw failure("links needs one count per kind and outcome")
            }
            totals.previewLinks = links
            totals.linkViolations = LinkViolations(counts: try fields.integers("linkViolations", count: 4))
            state.grona.totals.merge(totals, symbols: symbols)
        default:
            try decodeJoin(kind: kind, key: key, &fields)
        }
    }

    private mutating func decodeJoin(kind: String, key: [String], _ fields: inout Fields) throws(RecordError) {
        switch (kind, key.count) {
        case ("J", 1):
            var join = ClickJoin()
            if case .array(let click) = try fields.value("click") {
                guard click.count == 2 else { throw failure("bad click") }
                join.click = (symbol(try fields.string(click[0])), try fields.route(click[1]))
            }
            let counts = try fields.integers("counts", count: 6)
            (join.opens, join.openRetries, join.openConflicts) = (counts[0], counts[1], counts[2])
            (join.bindings, join.bindRetries, join.bindConflicts) = (counts[3], counts[4], counts[5])
            state.joins.clickJoins.upsert(symbol(key[0]), { join }, { [symbols] in $0.merge(join, symbols: symbols) })
        case ("U", 3):
            var assignment = UnitAssignment()
            for entry in try fields.array("variants") {
                guard case .array(let parts) = entry, parts.count == 3 else { throw failure("bad variant") }
                assignment.add(try fields.exposure(parts[...], &state.symbols))
            }
            let unitKey = CampaignUnit(campaign: symbol(key[0]), unit: try fields.unit(.string(key[1]), .string(key[2]), &state.symbols))
            state.joins.unitAssignments.upsert(unitKey, { assignment }, { [symbols] in $0.merge(assignment, symbols: symbols) })
        case ("X", 2):
            var conversion = UnitConversion()
            for entry in try fields.array("exposures") {
                guard case .array(let parts) = entry, parts.count == 3 else { throw failure("bad exposure") }
                conversion.exposures.append(.init(
                    campaign: symbol(try fields.string(parts[0])), variant: symbol(try fields.string(parts[1])),
                    firstExposure: try fields.instant(parts[2])))
            }
            for entry in try fields.array("orders") {
                guard case .array(let parts) = entry, parts.count == 2 else { throw failure("bad order") }
                conversion.orders.append(.init(ts: try fields.instant(parts[0]), amountMinor: Int64(try fields.value(number: parts[1]))))
            }
            let unit = try fields.unit(.string(key[0]), .string(key[1]), &state.symbols)
            state.joins.unitConversions.upsert(unit, { conversion }, { [symbols] in $0.merge(conversion, symbols: symbols) })
        case ("attr", 1):
            let values = try fields.integers("counts", count: 9)
            var counts = AttributionCounts()
            (counts.clicks, counts.storeClicks, counts.appClicks, counts.opens) = (values[0], values[1], values[2], values[3])
            (counts.openRetries, counts.openConflicts, counts.attributed) = (values[4], values[5], values[6])
            (counts.bindRetries, counts.bindConflicts) = (values[7], values[8])
            state.joins.campaignAttribution.upsert(symbol(key[0]), { counts }, { [symbols] in $0.merge(counts, symbols: symbols) })
        case ("cv", 2):
            let values = try fields.integers("counts", count: 5)
            var counts = VariantCounts()
            (counts.units, counts.convertedUnits, counts.orders, counts.impressions) = (values[0], values[1], values[2], values[3])
            counts.controlUnits = values[4]
            guard let revenue = Int128(try fields.string("revenue")), revenue >= 0 else { throw failure("bad revenue") }
            try limits.addRevenue(revenue, line: lineNumber)
            counts.revenueMinor = revenue
            let pair = SymbolPair(first: symbol(key[0]), second: symbol(key[1]))
            state.joins.variants.upsert(pair, { counts }, { [symbols] in $0.merge(counts, symbols: symbols) })
        case ("cstat", 1):
            let values = try fields.integers("counts", count: 3)
            let stats = CampaignStats(previewInstalls: values[0], contaminated: values[1], multiVariantUnits: values[2])
            state.joins.campaignStats.upsert(symbol(key[0]), { stats }, { [symbols] in $0.merge(stats, symbols: symbols) })
        case ("atot", 0):
            let values = try fields.integers("counts", count: 4)
            let extras = AttributionExtras(
                duplicateClicks: values[0], orphanOpens: values[1], unresolvedOpens: values[2], orphanBinds: values[3])
            state.joins.attributionExtras.merge(extras, symbols: symbols)
        default:
            throw failure("unknown record kind \(kind) with \(key.count) key parts")
        }
    }
}

/// Typed access to a record value's members, each failure naming the line.
private struct Fields {
    let value: JSONValue
    let line: Int
    let limits: RecordLimits

    func failure(_ problem: String) -> RecordError { RecordError(line: line, problem: problem) }

    func value(_ name: String) throws(RecordError) -> JSONValue {
        guard let member = value[name] else { throw failure("missing \"\(name)\"") }
        return member
    }

    func integer(_ name: String) throws(RecordError) -> Int { try integer(try value(name)) }

    /// A count: a value that merges add up, so it is charged to the sum of all counts.
    func integer(_ value: JSONValue) throws(RecordError) -> Int {
        let count = try self.value(number: value)
        try limits.addCount(count, line: line)
        return count
    }

    func value(number name: String) throws(RecordError) -> Int { try value(number: try value(name)) }

    /// An integer in 0...2^53−1 (the largest a JSON number holds exactly).
    func value(number value: JSONValue) throws(RecordError) -> Int {
        guard case .number(let number) = value, let integer = Int(exactly: number) else { throw failure("expected an integer") }
        guard (0...RecordLimits.maximumValue).contains(integer) else { throw failure("\(integer) is out of range 0...2^53-1") }
        return integer
    }

    func integers(_ name: String, count: Int) throws(RecordError) -> [Int] {
        guard case .array(let values) = try value(name), values.count == count else { throw failure("\"\(name)\" must hold \(count) integers") }
        var result: [Int] = []
        for element in values { result.append(try integer(element)) }
        return result
    }

    func bool(_ name: String) throws(RecordError) -> Bool { try bool(try value(name)) }

    func bool(_ value: JSONValue) throws(RecordError) -> Bool {
        guard case .bool(let flag) = value else { throw failure("expected true or false") }
        return flag
    }

    func string(_ name: String) throws(RecordError) -> String { try string(try value(name)) }

    func string(_ value: JSONValue) throws(RecordError) -> String {
        guard case .string(let text) = value else { throw failure("expected a string") }
        return text
    }

    func optionalString(_ name: String) throws(RecordError) -> String? { try optionalString(value[name] ?? .null) }

    func optionalString(_ value: JSONValue) throws(RecordError) -> String? {
        if value == .null { return nil }
        return try string(value)
    }

    func array(_ name: String) throws(RecordError) -> [JSONValue] {
        guard case .array(let values) = try value(name) else { throw failure("\"\(name)\" must be an array") }
        return values
    }

    func object(_ name: String) throws(RecordError) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = try value(name) else { throw failure("\"\(name)\" must be an object") }
        return members
    }

    func instant(_ name: String) throws(RecordError) -> Instant { try instant(try value(name)) }

    func instant(_ value: JSONValue) throws(RecordError) -> Instant {
        guard case .array(let parts) = value, parts.count == 2 else { throw failure("an instant is [seconds, nanoseconds]") }
        guard case .number(let secondsNumber) = parts[0], let seconds = Int64(exactly: secondsNumber),
              RecordLimits.instantSeconds.contains(seconds)
        else { throw failure("seconds out of the years 0001-9999") }
        let nanoseconds = try self.value(number: parts[1])
        guard (0..<1_000_000_000).contains(nanoseconds) else { throw failure("nanoseconds out of range") }
        return Instant(seconds: seconds, nanoseconds: Int32(nanoseconds))
    }

    func route(_ name: String) throws(RecordError) -> Route { try route(try value(name)) }

    func route(_ value: JSONValue) throws(RecordError) -> Route {
        switch try string(value) {
        case "app": return .app
        case "store": return .store
        default: throw failure("a route is app or store")
        }
    }

    func unit(_ kind: JSONValue, _ id: JSONValue, _ symbols: inout SymbolTable) throws(RecordError) -> UnitKey {
        let unitKind: DecisionUnit
        switch try string(kind) {
        case "install": unitKind = .install
        case "customer": unitKind = .customer
        default: throw failure("a unit is install or customer")
        }
        return UnitKey(kind: unitKind, id: symbols.intern(Array(try string(id).utf8)))
    }

    /// `[variant, firstExposure, control]`.
    func exposure(_ parts: ArraySlice<JSONValue>, _ symbols: inout SymbolTable) throws(RecordError) -> VariantExposure {
        let start = parts.startIndex
        return VariantExposure(
            variant: symbols.intern(Array(try string(parts[start]).utf8)), firstExposure: try instant(parts[start + 1]),
            control: try bool(parts[start + 2]))
    }

    func utm(_ name: String, _ symbols: inout SymbolTable) throws(RecordError) -> UTMParameters {
        try utm(try value(name), &symbols)
    }

    func utm(_ value: JSONValue, _ symbols: inout SymbolTable) throws(RecordError) -> UTMParameters {
        guard case .array(let parts) = value, parts.count == 5 else { throw failure("utm is five strings or nulls") }
        var interned: [Symbol?] = []
        for part in parts { interned.append(try optionalString(part).map { symbols.intern(Array($0.utf8)) }) }
        return UTMParameters(campaign: interned[0], source: interned[1], medium: interned[2], content: interned[3], term: interned[4])
    }

    func payload(_ parts: [JSONValue], _ symbols: inout SymbolTable) throws(RecordError) -> OpenPayload {
        guard parts.count == 4 else { throw failure("a payload is [appKey, slug, context, utm]") }
        let open = LinkOpen(
            ts: Instant(seconds: 0, nanoseconds: 0), openId: symbols.intern([]),
            appKey: symbols.intern(Array(try string(parts[0]).utf8)), slug: symbols.intern(Array(try string(parts[1]).utf8)),
            clickId: nil, context: try optionalString(parts[2]).map { symbols.intern(Array($0.utf8)) },
            utm: try utm(parts[3], &symbols))
        return OpenPayload(open)
    }
}

/// The bounds a stage input must keep, and what it has used of them so far.
final class RecordLimits {
    /// 2^53 − 1: the largest integer a record's JSON number holds exactly.
    static let maximumValue = 9_007_199_254_740_991
    /// The sum of every count of a stage input: far above any real run, far below `Int.max`.
    static let maximumCountTotal = 1 << 62
    /// Input errors a stage input may list (each is held in memory).
    static let maximumInputErrors = 1 << 20
    /// Revenue sums are Int128: the same reasoning, with room for 2^53 orders of 2^53.
    static let maximumRevenueTotal: Int128 = 1 << 120
    /// 0001-01-01T00:00:00+23:59 to 9999-12-31T23:59:59-23:59, in seconds from 1970.
    static let instantSeconds: ClosedRange<Int64> = -62_135_596_800 - 86_400 ... 253_402_300_799 + 86_400

    private var countTotal = 0
    private var inputErrors = 0
    private var revenueTotal: Int128 = 0

    func addCount(_ count: Int, line: Int) throws(RecordError) {
        countTotal += count
        guard countTotal <= Self.maximumCountTotal else {
            throw RecordError(line: line, problem: "the counts of the input add up to more than 2^62")
        }
    }

    func addInputErrors(_ count: Int, line: Int) throws(RecordError) {
        inputErrors += count
        guard inputErrors <= Self.maximumInputErrors else {
            throw RecordError(line: line, problem: "more than \(Self.maximumInputErrors) input errors")
        }
    }

    func addRevenue(_ revenue: Int128, line: Int) throws(RecordError) {
        guard revenue <= Self.maximumRevenueTotal - revenueTotal else {
            throw RecordError(line: line, problem: "the revenues of the input add up to more than 2^120")
        }
        revenueTotal += revenue
    }
}
