import Foundation
import Testing
@testable import GroveReport

/// How many partitions by key hash the merge and the joins use, and on how many threads, changes
/// no byte of any report.
struct PartitionTests {
    /// Three workers' partial states, each with its own symbol table, as `run` merges them.
    static func workers(_ lines: [String]) -> [PartialState] {
        let size = lines.count / 3 + 1
        return stride(from: 0, to: lines.count, by: size).map { partialState(Array(lines[$0..<min($0 + size, lines.count)])) }
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
        for (jobs, partitions) in [(1, 1), (2, nil), (2, 3), (3, 16), (1, 16)] as [(Int, Int?)] {
            let out = try temporaryDirectory("jobs\(jobs)partitions\(partitions ?? 0)")
            var options = RunOptions(inputs: [packageRoot + "/SampleData"], outputDirectory: out, jobs: jobs)
            options.partitions = partitions
            _ = try Pipeline.run(options)
            let reports = try reportContents(out)
            #expect(reports == (expected ?? reports), "--jobs \(jobs), \(partitions ?? 0) partitions")
            expected = expected ?? reports
        }
    }

}
