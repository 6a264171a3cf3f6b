import Testing
@testable import GroveReport

/// The state's index runs (`StateIndex`): whatever runs were written and merged, a lookup finds
/// exactly the entries added under each digest it asks for.
@Suite(.serialized)
struct StateIndexTests {
    static func emptyIndex() throws -> (SQLiteConnection, StateIndex) {
        let connection = try SQLiteConnection(path: try temporaryDirectory() + "/index.sqlite")
        try connection.execute(StateIndex.tables)
        return (connection, StateIndex(kind: .links, connection: connection))
    }

    static func random(_ generator: inout some RandomNumberGenerator) -> Int64 {
        Int64.random(in: -(1 << 47)..<(1 << 47), using: &generator)
    }

    /// Ten nights of 650 entries: 250 random ones, one digest with 400 targets (its entries span
    /// chunks, and chunk boundaries fall inside it), and one entry every night repeats.
    @Test func lookupsFindEveryEntryAcrossRunsAndMerges() throws {
        var generator = SystemRandomNumberGenerator()
        let (connection, index) = try Self.emptyIndex()
        var expected: [Int64: Set<Int64>] = [:]
        for night in 0..<10 {
            var entries = (0..<250).map { _ in StateIndexEntry(hash: Self.random(&generator), target: Self.random(&generator)) }
            entries += (0..<400).map { StateIndexEntry(hash: 42, target: Int64(night * 1000 + $0)) }
            entries.append(StateIndexEntry(hash: 7, target: 7))
            try index.add(entries.shuffled(using: &generator))
            for entry in entries { expected[entry.hash, default: []].insert(entry.target) }
        }
        // Four runs of a size class merge into one: nights 1–4 and 5–8, then nights 9 and 10.
        #expect(try connection.integer("SELECT count(*) FROM index_runs") == 4)
        let absent = (0..<2_000).map { _ in Self.random(&generator) }.filter { expected[$0] == nil }
        // Read through the object that wrote them, and anew from the tables.
        for reader in [index, StateIndex(kind: .links, connection: connection)] {
            var found: [Int64: Set<Int64>] = [:]
            for entry in try reader.entries(of: Array(expected.keys) + absent) { found[entry.hash, default: []].insert(entry.target) }
            #expect(found == expected)
            // The repeated entry once a run: the merged runs hold it once.
            #expect(try reader.entries(of: [7]).count == 4)
        }
        try index.mergeAll()
        #expect(try connection.integer("SELECT count(*) FROM index_runs") == 1)
        #expect(try index.entries(of: [7]) == [StateIndexEntry(hash: 7, target: 7)])
        #expect(try index.entries(of: [42]).count == 4_000)
        // Chunks filled to their budget: none past it, and few much below it.
        #expect(try connection.integer("SELECT max(length(entries)) FROM index_chunks") <= Int64(StateIndex.chunkBudget))
        #expect(try connection.integer("SELECT count(*) FROM index_chunks WHERE length(entries) < \(StateIndex.chunkBudget * 3 / 4)") <= 2)
    }

    /// A night's loads pass by the links the night added, while they stand in a run of their
    /// own; once a merge takes that run in, its entries are found with the others.
    @Test func lookingPastTheLatestAddLeavesOutItsRunUntilAMergeTakesItIn() throws {
        let (connection, index) = try Self.emptyIndex()
        func night(_ number: Int64) -> [StateIndexEntry] {
            (0..<300).map { StateIndexEntry(hash: 42, target: number * 1_000 + Int64($0)) } + [StateIndexEntry(hash: 7, target: number)]
        }
        try index.add(night(1))
        try index.add(night(2))
        #expect(try index.entries(of: [7], exceptLatestAdded: true) == [StateIndexEntry(hash: 7, target: 1)])
        #expect(try index.entries(of: [7]).count == 2)
        try index.add(night(3))
        #expect(try index.entries(of: [7, 42], exceptLatestAdded: true).count == 602)
        // The fourth run of one size merges the four: the latest add is in the merged run.
        try index.add(night(4))
        #expect(try connection.integer("SELECT count(*) FROM index_runs") == 1)
        #expect(try index.entries(of: [7], exceptLatestAdded: true).map(\.target) == [1, 2, 3, 4])
    }

    /// A chunk cut short or gone, or a run whose filter does not fit it, is damage, not a miss.
    @Test func aDamagedRunIsDamage() throws {
        var generator = SystemRandomNumberGenerator()
        for damage in ["UPDATE index_chunks SET entries = substr(entries, 1, 17)", "DELETE FROM index_chunks",
                       "UPDATE index_runs SET capacity = capacity * 8"] {
            let (connection, index) = try Self.emptyIndex()
            let entries = (0..<500).map { _ in StateIndexEntry(hash: Self.random(&generator), target: 1) }
            try index.add(entries)
            try connection.execute(damage)
            #expect(throws: SQLiteError.self, "\(damage)") {
                try StateIndex(kind: .links, connection: connection).entries(of: entries.map(\.hash))
            }
            do {
                _ = try StateIndex(kind: .links, connection: connection).entries(of: entries.map(\.hash))
            } catch {
                #expect(error.isDamage, "\(damage): \(error)")
            }
        }
    }

    /// Entries are stored as varint steps from the previous one: every digest and row id comes
    /// back as it was, in any order and at the edges of 48 bits; a chunk cut anywhere, or with a
    /// byte too many, is not read.
    @Test func entriesRoundTripTheirStoredForm() throws {
        let edges: [Int64] = [0, 1, -1, (1 << 47) - 1, -(1 << 47), 123_456_789, -987_654_321]
        let entries = edges.flatMap { hash in edges.map { StateIndexEntry(hash: hash, target: $0) } }
        let bytes = StateIndexEntry.encode(entries)
        let chunk = try #require(StateIndexEntry.Chunk(bytes))
        #expect((0..<chunk.count).map { chunk[$0] } == entries)
        for end in 0..<bytes.count { #expect(StateIndexEntry.Chunk(Array(bytes[..<end])) == nil, "cut at \(end)") }
        #expect(StateIndexEntry.Chunk(bytes + [0]) == nil)
    }

    /// What the encoding is for: a night's key run (100k random digests, row ids one apart)
    /// takes about six bytes an entry, not twelve.
    @Test func aNightsKeyRunTakesAboutSixBytesAnEntry() throws {
        var generator = SystemRandomNumberGenerator()
        let digests = (0..<100_000).map { _ in Self.random(&generator) }.sorted()
        let entries = digests.enumerated().map { StateIndexEntry(hash: $0.element, target: 5_000_000 + Int64($0.offset)) }
        let bytes = stride(from: 0, to: entries.count, by: 160).reduce(0) { total, start in
            total + StateIndexEntry.encode(entries[start..<min(start + 160, entries.count)]).count
        }
        #expect(Double(bytes) / Double(entries.count) < 6.5, "\(bytes) bytes for \(entries.count) entries")
    }
}
