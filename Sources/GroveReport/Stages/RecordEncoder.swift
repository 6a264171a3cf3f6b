/// Writes a partial state as stage records: one line `KEY<TAB>VALUE` per record, KEY a compact
/// JSON array of strings naming the kind and the record's key, VALUE a compact JSON object with
/// the format version `"v"`. JSON escaping keeps tabs and newlines out of both.
///
/// The record kinds and their keys (the shuffle key of the stage that reads them) are listed in
/// `docs/SPARK.md`.
struct RecordEncoder {
    static let formatVersion = 2

    let state: PartialState
    /// Set for the state file, which must hold no email address (`TextSealing`).
    let sealing: TextSealing?
    private(set) var output: [UInt8] = []

    init(_ state: PartialState, sealing: TextSealing? = nil) {
        self.state = state
        self.sealing = sealing
    }

    /// Every record of the state.
    static func encode(_ state: PartialState, sealing: TextSealing? = nil) -> [UInt8] {
        var encoder = RecordEncoder(state, sealing: sealing)
        encoder.encodeAll()
        return encoder.output
    }

    private mutating func emit(_ key: [JSONOutput], _ members: [JSONOutput.Member]) {
        output += Self.line(key, members)
    }

    private static func line(_ key: [JSONOutput], _ members: [JSONOutput.Member]) -> [UInt8] {
        var line = JSONOutput.array(key).compact()
        line.append(0x09)
        line += JSONOutput.object([JSONOutput.Member("v", .integer(formatVersion))] + members).compact()
        line.append(0x0A)
        return line
    }

    /// The `rej` record of one rejected line; `partial` streams these as it finds them.
    static func reject(_ record: RejectRecord) -> [UInt8] {
        var members = [
            JSONOutput.Member("offset", .integer(record.offset)),
            JSONOutput.Member("reason", .string(record.reason.text)),
        ]
        if let raw = record.raw { members.append(JSONOutput.Member("raw", .string(ByteString(raw)))) }
        return line([.text("rej"), .text(record.file), .text(String(record.inputIndex)), .text(String(record.line))], members)
    }

    private func text(_ symbol: Symbol) -> JSONOutput {
        let text = state.symbols.string(symbol)
        return .string(sealing?.seal(text, always: false) ?? text)
    }

    /// A normalized email: only ever written sealed into the state.
    private func email(_ symbol: Symbol) -> JSONOutput {
        let text = state.symbols.string(symbol)
        return .string(sealing?.seal(text, always: true) ?? text)
    }

    private func text(_ symbol: Symbol?) -> JSONOutput { symbol.map(text) ?? .null }

    private func instant(_ instant: Instant) -> JSONOutput {
        .array([.integer(Int(instant.seconds)), .integer(Int(instant.nanoseconds))])
    }

    private func utm(_ utm: UTMParameters) -> JSONOutput { .array(utm.all.map(text)) }

    /// `[variant, firstExposure, control]`.
    private func exposure(_ exposure: VariantExposure) -> [JSONOutput] {
        [text(exposure.variant), instant(exposure.firstExposure), .bool(exposure.control)]
    }

    private func unit(_ unit: UnitKey) -> [JSONOutput] {
        [.text(unit.kind == .install ? "install" : "customer"), text(unit.id)]
    }

    private mutating func encodeAll() {
        encodeAccounting()
        for record in state.rejects { output += Self.reject(record) }
        encodeAttribution()
        encodeGrona()
        encodeJoins()
    }

    private mutating func encodeAccounting() {
        let accounting = state.accounting
        emit([.text("acct")], [
            JSONOutput.Member("accepted", .array(accounting.accepted.map(JSONOutput.integer))),
            JSONOutput.Member("ignored", .array(accounting.ignored.map(JSONOutput.integer))),
            JSONOutput.Member("rejected", .object(accounting.rejected.map { JSONOutput.Member(key: $0.key.text, .integer($0.value)) }
                .sorted { $0.key < $1.key })),
            JSONOutput.Member("files", .integer(accounting.files)),
            JSONOutput.Member("bytes_read", .integer(accounting.bytes.read)),
            JSONOutput.Member("bytes_decompressed", .integer(accounting.bytes.decompressed)),
        ])
        for error in accounting.inputErrors {
            emit([.text("err"), .text(error.file), .text(String(error.offset)), .text(error.error)], [
                JSONOutput.Member("n", .integer(1)),
            ])
        }
    }

    private mutating func encodeAttribution() {
        let attribution = state.attribution
        for (key, click) in zip(attribution.clicks.keys, attribution.clicks.records) {
            let earliest = click.earliest
            emit([.text("click"), text(key)], [
                JSONOutput.Member("ts", instant(earliest.ts)),
                JSONOutput.Member("route", .text(earliest.route == .app ? "app" : "store")),
                JSONOutput.Member("appKey", text(earliest.appKey)),
                JSONOutput.Member("slug", text(earliest.slug)),
                JSONOutput.Member("utm", utm(earliest.utm)),
                JSONOutput.Member("lines", .integer(click.lines)),
            ])
        }
        for (key, open) in zip(attribution.opens.keys, attribution.opens.records) {
            let original = open.original
            emit([.text("open"), text(key)], [
                JSONOutput.Member("ts", instant(original.ts)),
                JSONOutput.Member("clickId", text(original.clickId)),
                JSONOutput.Member("payload", payload(OpenPayload(original))),
                JSONOutput.Member("payloads", .array(open.payloads.entries.map { .array([payload($0.value), .integer($0.lines)]) })),
            ])
        }
        for (key, binding) in zip(attribution.bindings.keys, attribution.bindings.records) {
            emit([.text("bind"), text(key)], [
                JSONOutput.Member("ts", instant(binding.winner.ts)),
                JSONOutput.Member("email", email(binding.winner.normalizedEmail)),
                JSONOutput.Member("emails", .array(binding.emails.entries.map { .array([email($0.value), .integer($0.lines)]) })),
            ])
        }
    }

    private func payload(_ payload: OpenPayload) -> JSONOutput {
        .array([text(payload.appKey), text(payload.slug), text(payload.context), utm(payload.utm)])
    }

    private mutating func encodeGrona() {
        let grona = state.grona
        for (key, counters) in zip(grona.counters.keys, grona.counters.records) {
            emit([.text("camp"), text(key)], [
                JSONOutput.Member("previewDecisions", .integer(counters.previewDecisions)),
                JSONOutput.Member("previewImpressions", .integer(counters.previewImpressions)),
                JSONOutput.Member("previewGrants", .integer(counters.previewGrants)),
                JSONOutput.Member("decisions", .integer(counters.decisions)),
                JSONOutput.Member("missingCustomer", .integer(counters.missingCustomer)),
                JSONOutput.Member("previewPairings", .integer(counters.previewPairings)),
                JSONOutput.Member("linkViolations", .array(counters.linkViolations.counts.map(JSONOutput.integer))),
            ])
        }
        for (key, install) in zip(grona.installs.keys, grona.installs.records) {
            emit([.text("inst"), text(key.first), text(key.second)], [
                JSONOutput.Member("preview", .bool(install.isPreviewInstall)),
                JSONOutput.Member("decisions", .array(install.decisions.values.map { decision in
                    .array(unit(decision.unit) + exposure(decision.exposure) + [.integer(decision.lines)])
                })),
                JSONOutput.Member("impressions", .array(install.impressions.entries.map { .array([text($0.key), .integer($0.value)]) })),
                JSONOutput.Member("grants", .integer(install.grants)),
                JSONOutput.Member("leaked", .integer(install.leaked)),
            ])
        }
        for (key, order) in zip(grona.orders.keys, grona.orders.records) {
            let earliest = order.earliest
            emit([.text("order"), text(key)], [
                JSONOutput.Member("ts", instant(earliest.ts)),
                JSONOutput.Member("amount", .integer(Int(earliest.amountMinor))),
                JSONOutput.Member("preview", .bool(earliest.isPreview)),
                JSONOutput.Member("denied", .bool(earliest.subject.consent == .denied)),
                JSONOutput.Member("installId", text(earliest.subject.installId)),
                JSONOutput.Member("customerId", text(earliest.subject.customerId)),
            ])
        }
        emit([.text("gtot")], [
            JSONOutput.Member("preview", .array(grona.totals.preview.map(JSONOutput.integer))),
            JSONOutput.Member("denied", .array(grona.totals.consentDenied.map(JSONOutput.integer))),
            JSONOutput.Member("leaked", .integer(grona.totals.leaked)),
            JSONOutput.Member("links", .array(grona.totals.previewLinks.cells.map(JSONOutput.integer))),
            JSONOutput.Member("linkViolations", .array(grona.totals.linkViolations.counts.map(JSONOutput.integer))),
        ])
    }

    private mutating func encodeJoins() {
        let joins = state.joins
        for (key, join) in zip(joins.clickJoins.keys, joins.clickJoins.records) {
            let click: JSONOutput = join.click.map { .array([text($0.campaign), .text($0.route == .app ? "app" : "store")]) } ?? .null
            emit([.text("J"), text(key)], [
                JSONOutput.Member("click", click),
                JSONOutput.Member("counts", .array([join.opens, join.openRetries, join.openConflicts,
                                                    join.bindings, join.bindRetries, join.bindConflicts].map(JSONOutput.integer))),
            ])
        }
        for (key, assignment) in zip(joins.unitAssignments.keys, joins.unitAssignments.records) {
            emit([.text("U"), text(key.campaign)] + unit(key.unit), [
                JSONOutput.Member("variants", .array(assignment.variants.map {
                    .array(exposure($0))
                })),
            ])
        }
        for (key, conversion) in zip(joins.unitConversions.keys, joins.unitConversions.records) {
            emit([.text("X")] + unit(key), [
                JSONOutput.Member("exposures", .array(conversion.exposures.map {
                    .array([text($0.campaign), text($0.variant), instant($0.firstExposure)])
                })),
                JSONOutput.Member("orders", .array(conversion.orders.map { .array([instant($0.ts), .integer(Int($0.amountMinor))]) })),
            ])
        }
        for (key, counts) in zip(joins.campaignAttribution.keys, joins.campaignAttribution.records) {
            emit([.text("attr"), text(key)], [
                JSONOutput.Member("counts", .array([counts.clicks, counts.storeClicks, counts.appClicks, counts.opens,
                                                    counts.openRetries, counts.openConflicts, counts.attributed,
                                                    counts.bindRetries, counts.bindConflicts].map(JSONOutput.integer))),
            ])
        }
        for (key, counts) in zip(joins.variants.keys, joins.variants.records) {
            emit([.text("cv"), text(key.first), text(key.second)], [
                JSONOutput.Member("counts", .array([counts.units, counts.convertedUnits, counts.orders, counts.impressions,
                                                    counts.controlUnits].map(JSONOutput.integer))),
                JSONOutput.Member("revenue", .text(String(counts.revenueMinor))),
            ])
        }
        for (key, stats) in zip(joins.campaignStats.keys, joins.campaignStats.records) {
            emit([.text("cstat"), text(key)], [
                JSONOutput.Member("counts", .array([stats.previewInstalls, stats.contaminated, stats.multiVariantUnits].map(JSONOutput.integer))),
            ])
        }
        let extras = joins.attributionExtras
        emit([.text("atot")], [
            JSONOutput.Member("counts", .array([extras.duplicateClicks, extras.orphanOpens, extras.unresolvedOpens,
                                                extras.orphanBinds].map(JSONOutput.integer))),
        ])
    }
}
