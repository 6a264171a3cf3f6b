import Foundation
import Testing
@testable import GroveReport

/// How many partitions by key hash the merge and the joins use, and on how many threads, changes
/// no byte of any report.
struct PartitionTests {
    /// Three workers' partial states, each with its own symbol table, as `run` merges them.
    static func workers<State: WorkerState>(_ lines: [String], as type: State.Type = PartialState.self) -> [State] {
        let size = lines.count / 3 + 1
        return stride(from: 0, to: lines.count, by: size).map {
            partialState(Array(lines[$0..<min($0 + size, lines.count)]), as: type)
        }
    }

    @Test(arguments: [1, 3, 16])
    func anyPartitionCountAndThreadCountGiveTheSameReports(partitions: Int) throws {
        let lines = try PropertyTests.lines
        #expect(!lines.isEmpty)
        for scope in PreviewScope.allCases {
            let expected = renderedReports(partialState(lines), scope: scope)
            for threads in [1, 2, 5] {
                let joined = PartitionedState(merging: Self.workers(lines), partitions: partitions, threads: threads).joined(scope: scope)
                #expect(renderedReports(joined) == expected, "\(partitions) partitions, \(threads) threads, \(scope) scope")
            }
        }
    }

    @Test func runWritesTheSameReportsWithAnyJobsAndPartitions() throws {
        var expected: [String: String]?
        for (jobs, partitions) in [(1, 1), (2, nil), (2, 3), (3, 16), (1, 16), (2, 40)] as [(Int, Int?)] {
            let out = try temporaryDirectory("jobs\(jobs)partitions\(partitions ?? 0)")
            var options = RunOptions(inputs: [packageRoot + "/SampleData"], outputDirectory: out, jobs: jobs)
            options.partitions = partitions
            _ = try Pipeline.run(options)
            let reports = try reportContents(out)
            #expect(reports == (expected ?? reports), "--jobs \(jobs), \(partitions ?? 0) partitions")
            expected = expected ?? reports
        }
    }

    /// `run`'s workers keep their stores by shard; merged into any number of partitions on any
    /// number of threads, they report what one flat state reports.
    @Test(arguments: [1, 3, 8, 16, 40])
    func shardedWorkersGiveTheSameReportsAsOneState(partitions: Int) throws {
        let lines = try PropertyTests.lines
        for scope in PreviewScope.allCases {
            let expected = renderedReports(partialState(lines), scope: scope)
            for threads in [1, 2] {
                let workers = Self.workers(lines, as: ShardedPartialState.self)
                let joined = PartitionedState(merging: workers, partitions: partitions, threads: threads).joined(scope: scope)
                #expect(renderedReports(joined) == expected, "\(partitions) partitions, \(threads) threads, \(scope) scope")
            }
        }
    }

    /// A shard moves whole into its partition, so every key a worker's shard holds must be a key
    /// of that shard's partition (`Event.partitionSymbol` agrees with the stores' keys).
    @Test func everyShardHoldsOnlyItsOwnKeys() throws {
        let state = partialState(try PropertyTests.lines, as: ShardedPartialState.self)
        let count = SymbolTable.shardCount
        var keys = 0
        for number in state.shards.indices {
            let shard = state.shards[number]
            let partitions = shard.attribution.clicks.keys.map { $0.partition(of: count) }
                + shard.attribution.opens.keys.map { $0.partition(of: count) }
                + shard.attribution.bindings.keys.map { $0.partition(of: count) }
                + shard.exposure.installs.keys.map { $0.partition(of: count) }
                + shard.exposure.orders.keys.map { $0.partition(of: count) }
            #expect(partitions.allSatisfy { $0 == number }, "shard \(number)")
            keys += partitions.count
        }
        #expect(keys > 1_000)
        #expect(state.shards.indices.allSatisfy { !state.shards[$0].attribution.clicks.keys.isEmpty })
    }
}
