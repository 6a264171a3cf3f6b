import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport
@testable import grove_report

/// The committed `SampleReports/` are exactly what `run` writes for the committed `SampleData/`,
/// and the README's first command leaves the checkout as it was (docs/DECISIONS.md, The sample
/// reports).
@Suite(.serialized)
struct SampleReportsTests {
    @Test func theDefaultRunReproducesTheCommittedReports() throws {
        let out = try temporaryDirectory()
        let result = try execute(["run", "--out", out], in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try reportContents(packageRoot + "/SampleReports")
        let actual = try reportContents(out)
        for name in reportNames {
            #expect(actual[name] == expected[name], "\(name) differs from SampleReports/\(name): regenerate with 'swift run -c release grove-report run --out SampleReports'")
        }
    }

    @Test func theSampleDataIsWhatTheGeneratorWrites() throws {
        let out = try temporaryDirectory()
        let summary = try LogGenerator.generate(GeneratorOptions(events: 20_000, files: 4, seed: 2026, badLineShare: 0.002), into: out)
        for file in summary.files {
            let name = (file as NSString).lastPathComponent
            #expect(try readFile(file) == readFile(packageRoot + "/SampleData/" + name), "\(name)")
        }
    }

    /// The README's first command (its words after `grove-report`, as the README writes them),
    /// run in the checkout, writes only what git ignores: `git status` of what it wrote is empty,
    /// whatever else the working tree holds. Needs git and a checkout; skipped elsewhere.
    @Test(.enabled(if: SampleReportsTests.isGitCheckout, "needs git and a git checkout of the package"))
    func theReadmeCommandLeavesTheCheckoutClean() throws {
        let words = try Self.readmeFirstCommand()
        #expect(words.first == "run", "the README's first command is no longer 'run': \(words)")
        let result = try execute(words, in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        guard case .run(let options) = try Command.parse(words) else { throw UsageError("not run") }
        let written = options.outputDirectory ?? RunOptions.defaultOutputDirectory
        let status = try Self.git(["status", "--porcelain", "--untracked-files=all", "--", written])
        #expect(status.isEmpty, "the README's command changed or added files git does not ignore:\n\(status)")
        // Only the folder's `.gitignore` is committed there: it shows where `run` writes.
        let tracked = try Self.git(["ls-files", "--", written]).split(separator: "\n").filter { !$0.hasSuffix(".gitignore") }
        #expect(tracked.isEmpty, "files the README's command rewrites are committed:\n\(tracked)")
    }

    /// The words after `grove-report` on the first line of the README's first code block, up to
    /// its comment.
    static func readmeFirstCommand() throws -> [String] {
        let readme = String(decoding: try readFile(packageRoot + "/README.md"), as: UTF8.self)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let fence = lines.firstIndex(where: { $0.hasPrefix("```") }), fence + 1 < lines.count,
              let range = lines[fence + 1].range(of: "grove-report ")
        else { throw UsageError("the README has no first command naming grove-report") }
        let command = lines[fence + 1][range.upperBound...].prefix { $0 != "#" }
        return command.split(separator: " ").map(String.init)
    }

    static let isGitCheckout = (try? git(["rev-parse", "--is-inside-work-tree"])) == "true\n"

    /// Runs git in the package root; its standard output, or an error when it fails.
    static func git(_ arguments: [String]) throws -> String {
        let result = try execute(["-C", packageRoot] + arguments, executable: "/usr/bin/git")
        guard result.status == 0 else { throw UsageError("git \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }
}
