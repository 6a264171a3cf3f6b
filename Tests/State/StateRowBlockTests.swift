import Testing
@testable import GroveReport

/// Record rows stored together (`StateRowBlock`): each comes back at its slot, a deleted one
/// leaves its slot empty and the others where they were, and a damaged block is not read.
struct StateRowBlockTests {
    static func rows(_ count: Int) -> [StateRows.Row] {
        (0..<count).map { index in
            StateRows.Row(key: [1] + Array("clk_\(index)".utf8), value: Array(repeating: UInt8(index), count: 20 + index % 50))
        }
    }

    @Test func rowsComeBackAtTheirSlotsAndADeletedOneLeavesItsSlotEmpty() throws {
        var builder = StateRowBlock.Builder()
        var written: [StateRows.Row] = []
        for row in Self.rows(100) {
            guard builder.fits(keyCount: row.key.count, valueCount: row.value.count) else { break }
            builder.append(key: row.key, value: row.value)
            written.append(row)
        }
        // Filled to the budget (a kilobyte), not past it.
        #expect(written.count > 10 && written.count < StateRowBlock.capacity)
        let block = builder.take()
        #expect(block.count <= StateRowBlock.budget + 2)
        let read = try #require(StateRowBlock.decode(block))
        #expect(read.map(\.key) == written.map(\.key) && read.map(\.value) == written.map(\.value))
        // Two rows of a block deleted at once: the others keep their slots.
        let deleted = try #require(StateRowBlock.deleting(slots: [3, 7], from: block))
        let kept = try #require(StateRowBlock.decode(deleted))
        #expect(kept.count == written.count && [3, 7].allSatisfy { kept[$0].key.isEmpty && kept[$0].value.isEmpty })
        #expect(kept.enumerated().filter { ![3, 7].contains($0.offset) }.map(\.element.key)
            == written.enumerated().filter { ![3, 7].contains($0.offset) }.map(\.element.key))
        #expect(StateRowBlock.deleting(slots: [3, written.count], from: block) == nil)
    }

    @Test func aBlockCutOrRunOnIsDamage() throws {
        var builder = StateRowBlock.Builder()
        for row in Self.rows(5) { builder.append(key: row.key, value: row.value) }
        let block = builder.take()
        for end in 0..<block.count { #expect(StateRowBlock.decode(Array(block[..<end])) == nil, "cut at \(end)") }
        #expect(StateRowBlock.decode(block + [0]) == nil)
        // A count past the capacity is damage, not a size to reserve.
        #expect(StateRowBlock.decode([0xFF, 0x7F]) == nil)
    }

    /// What a night reads of a block: the slots it asks for, each once, and nothing past the
    /// block's rows.
    @Test func visitingGivesTheAskedSlotsOnlyAndRefusesDamage() throws {
        var builder = StateRowBlock.Builder()
        let rows = Self.rows(6)
        for row in rows { builder.append(key: row.key, value: row.value) }
        let block = builder.take()
        func visited(_ bytes: [UInt8], _ slots: [Int]) -> [Int]? {
            var seen: [Int] = []
            let whole = bytes.withUnsafeBytes { raw in
                StateRowBlock.visit(raw, slots: slots) { slot, key, value in
                    #expect(Array(key) == rows[slot].key && Array(value) == rows[slot].value)
                    seen.append(slot)
                }
            }
            return whole ? seen : nil
        }
        #expect(visited(block, [1, 4, 4, 5]) == [1, 4, 5])
        #expect(visited(block, [0]) == [0])
        #expect(visited(block, []) == [])
        #expect(visited(block, [2, 6]) == nil, "slot 6 is past the block's six rows")
        #expect(visited(Array(block.dropLast()), [5]) == nil, "the last row is cut")
        #expect(visited([], [0]) == nil)
    }

    @Test func addressesNameABlockAndASlot() {
        for (block, slot) in [(Int64(1), 0), (7, StateRowBlock.capacity - 1), (123_456_789, 17)] {
            let address = StateRowBlock.address(block: block, slot: slot)
            #expect(StateRowBlock.block(of: address) == block && StateRowBlock.slot(of: address) == slot)
        }
    }
}
