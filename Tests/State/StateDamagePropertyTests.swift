import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// A damaged state never gets worse (issue 31): a real small state truncated at random offsets,
/// with random bytes flipped, or swapped for another program's database or an empty file, is
/// given a night on the built binary. The night either succeeds (the damage was where SQLite and
/// the night do not look) or exits 2; whenever it does not succeed, the file is byte for byte
/// what it was and no side file appeared beside it.
@Suite(.serialized)
struct StateDamagePropertyTests {
    enum Damage: CustomStringConvertible {
        case truncated(at: Int)
        case flipped([(offset: Int, mask: UInt8)])
        case foreign(String)
        case empty

        var description: String {
            switch self {
            case .truncated(let offset): "truncated at \(offset)"
            case .flipped(let flips): "flipped " + flips.map { "\($0.offset)^\($0.mask)" }.joined(separator: ",")
            case .foreign(let sql): "foreign: \(sql)"
            case .empty: "empty"
            }
        }
    }

    static let foreignDatabases = [
        "CREATE TABLE t (x); INSERT INTO t VALUES (1);",
        "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(9000));",
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('email_salt', 'ab'); PRAGMA user_version = 1;",
        "PRAGMA journal_mode = WAL; CREATE TABLE runs (id); CREATE TABLE inputs (x); PRAGMA user_version = 2;",
        "PRAGMA user_version = 7; CREATE TABLE t (x);",
    ]

    /// 32 damages drawn with `seed`: truncations and flips of `size` bytes, every foreign database
    /// and the empty file.
    static func damages(seed: UInt64, size: Int) -> [Damage] {
        var random = SeededRandom(seed: seed)
        var damages: [Damage] = foreignDatabases.map(Damage.foreign) + [.empty]
        while damages.count < 32 {
            if random.chance(0.35) {
                damages.append(.truncated(at: Int.random(in: 1..<size, using: &random)))
            } else {
                // Mostly past the header, where SQLite trusts the pages it reads.
                let flips = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    (offset: random.chance(0.1) ? Int.random(in: 0..<100, using: &random) : Int.random(in: 100..<size, using: &random),
                     mask: UInt8.random(in: 1...255, using: &random))
                }
                damages.append(.flipped(flips))
            }
        }
        return damages
    }

    @Test func aDamagedStateIsRefusedUnchangedOrTakesTheNight() throws {
        let directory = try temporaryDirectory()
        let (state, night) = try StateFileSafetyTests.smallState(in: directory)
        let original = try readFile(state)
        var outcomes: [Int32: Int] = [:]
        for (index, damage) in Self.damages(seed: 31, size: original.count).enumerated() {
            let path = directory + "/case-\(index).db"
            switch damage {
            case .truncated(let offset): try writeFile(path, Array(original.prefix(offset)))
            case .flipped(let flips):
                var bytes = original
                for flip in flips { bytes[flip.offset] ^= flip.mask }
                try writeFile(path, bytes)
            case .foreign(let sql): try StateFileSafetyTests.sqlite(path, sql)
            case .empty: try writeFile(path, [])
            }
            let before = try StateFileSafetyTests.Snapshot(path)
            let result = try execute(["run", "--state", path, "--out", directory + "/out-\(index)", "--max-reject-rate", "1", night])
            outcomes[result.status, default: 0] += 1
            #expect(!result.killedBySignal && (result.status == 0 || result.status == 2),
                    "\(damage): exit \(result.status): \(result.stderr)")
            if result.status != 0 {
                #expect(try StateFileSafetyTests.Snapshot(path) == before, "\(damage): the refused state changed")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(damage): \(result.stderr)")
            }
        }
        // Both outcomes occur: the property is not met by refusing everything.
        #expect(outcomes[2, default: 0] >= Self.foreignDatabases.count + 1, "\(outcomes)")
    }
}
