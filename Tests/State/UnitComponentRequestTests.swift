import Testing
@testable import GroveReport

/// Which linked records a night's unit components keep (`UnitComponentRequest`), by hand: an
/// install record of a campaign asked for with a unit that links to it, every row of a record a
/// unit asked for in every campaign, and every row that is not an install record's.
struct UnitComponentRequestTests {
    /// A stored row of `digest` whose key is an install row's of campaign number `campaign`.
    static func installRow(_ digest: Int64, campaign: UInt64) -> StateStore.RecordRow {
        var key = [InstallRecord.rowKind]
        Varint.append(campaign, to: &key)
        key += [2, 0x61, 0x62]
        return StateStore.RecordRow(id: 1, digest: digest, key: key, value: [])
    }

    static func request() -> UnitComponentRequest {
        var request = UnitComponentRequest()
        // Unit 10 in campaign 1 (asked twice), unit 20 by an order (every campaign), unit 30 in
        // campaign 2, unit 40 in campaign 3 and in campaign 300 (a two-byte number).
        request.ask(unit: 10, campaign: 1)
        request.ask(unit: 30, campaign: 2)
        request.ask(unit: 20, campaign: nil)
        request.ask(unit: 10, campaign: 1)
        request.ask(unit: 40, campaign: 3)
        request.ask(unit: 40, campaign: 300)
        return request
    }

    @Test func theLinksOfTheUnitsAskedForNameTheRecordsToLoad() {
        var request = Self.request()
        #expect(request.unitDigests.sorted() == [10, 10, 20, 30, 40, 40])
        // Unit 20's link names record 100 too; unit 50 was not asked for.
        let links = [(30, 300), (10, 101), (20, 100), (10, 100), (20, 200), (40, 400), (50, 500)]
            .map { StateIndexEntry(hash: Int64($0.0), target: Int64($0.1)) }
        #expect(request.resolve(links) == [100, 101, 200, 300, 400])
    }

    @Test func anInstallRecordIsKeptOnlyForACampaignItsUnitsWereAskedFor() {
        var request = Self.request()
        _ = request.resolve([(10, 101), (10, 100), (20, 100), (30, 300), (40, 400)].map { StateIndexEntry(hash: Int64($0.0), target: Int64($0.1)) })
        // Record 101: only unit 10, in campaign 1.
        #expect(request.needs(Self.installRow(101, campaign: 1)))
        #expect(!request.needs(Self.installRow(101, campaign: 2)))
        // Record 100: unit 20 asks for every campaign.
        #expect(request.needs(Self.installRow(100, campaign: 1)))
        #expect(request.needs(Self.installRow(100, campaign: 77)))
        // Record 300: unit 30, campaign 2 only.
        #expect(request.needs(Self.installRow(300, campaign: 2)))
        #expect(!request.needs(Self.installRow(300, campaign: 1)))
        // Record 400: unit 40 in two campaigns, one of them past a one-byte varint.
        #expect(request.needs(Self.installRow(400, campaign: 3)))
        #expect(request.needs(Self.installRow(400, campaign: 300)))
        #expect(!request.needs(Self.installRow(400, campaign: 44)))
    }

    @Test func rowsOfOtherKindsAndKeysTooDamagedToTellAreKept() {
        var request = Self.request()
        _ = request.resolve([StateIndexEntry(hash: 30, target: 300)])
        var order = Self.installRow(300, campaign: 1)
        order.key[0] = OrderRecord.rowKind
        #expect(request.needs(order))
        // The campaign's varint cut short: decoding the row reports the damage.
        #expect(request.needs(StateStore.RecordRow(id: 1, digest: 300, key: [InstallRecord.rowKind, 0x80], value: [])))
        #expect(request.needs(StateStore.RecordRow(id: 1, digest: 300, key: [], value: [])))
    }

    /// One side's asks: each unit's digest once per link, every campaign asked for kept, and a
    /// campaign number too large to pack asking for every campaign.
    @Test func aSidesAsksTakeEachDigestOnceAndKeepTheirCampaigns() {
        var symbols = SymbolTable()
        let (install, customer) = (Array("8E3AE4D4-0000-4000-8000-000000000001".utf8), Array("cus_1".utf8))
        let installUnit = UnitKey(kind: .install, id: symbols.intern(install))
        let customerUnit = UnitKey(kind: .customer, id: symbols.intern(customer))
        let digest = StateKeyDigest(key: Array(repeating: 7, count: 16))
        var asks = UnitComponentRequest.Asks()
        for _ in 0..<3 { asks.ask(.orders, of: installUnit, campaign: nil) }
        asks.ask(.installRecords, of: customerUnit, campaign: 4)
        asks.ask(.installRecords, of: customerUnit, campaign: 9)
        asks.ask(.installRecords, of: customerUnit, campaign: 4)
        asks.ask(.orders, of: customerUnit, campaign: nil)
        asks.ask(.installRecords, of: installUnit, campaign: 1 << 40)
        var request = UnitComponentRequest()
        asks.add(to: &request, symbols: symbols, digest: digest)
        let (installOrders, installRecords) = (digest.orders(.install, install), digest.unit(.install, install))
        let (customerOrders, customerRecords) = (digest.orders(.customer, customer), digest.unit(.customer, customer))
        #expect(request.unitDigests.sorted() == [installOrders, installRecords, customerOrders, customerRecords, customerRecords].sorted())
        let links = [(customerRecords, 100), (installRecords, 200), (installOrders, 300), (customerOrders, 300)]
        #expect(request.resolve(links.map { StateIndexEntry(hash: $0.0, target: Int64($0.1)) }) == [100, 200, 300])
        #expect(request.needs(Self.installRow(100, campaign: 4)))
        #expect(request.needs(Self.installRow(100, campaign: 9)))
        #expect(!request.needs(Self.installRow(100, campaign: 5)))
        #expect(request.needs(Self.installRow(200, campaign: 77)))
    }
}
