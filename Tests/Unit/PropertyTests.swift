import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport

/// Order-independence, partition-independence and accounting properties over generated data.
extension PropertyTests {
    /// The partition key of a line's event: its join key, or the line itself for non-events.
    func partitionKey(_ line: String) -> UInt64 {
        guard let (event, symbols) = acceptedEventWithSymbols(line) else { return ByteString(line).stableHash }
        let key: Symbol
        switch event {
        case .linkClick(let click): key = click.clickId
        case .linkOpen(let open): key = open.openId
        case .clickBind(let bind): key = bind.clickId
        case .decision(let decision): key = decision.subject.installId
        case .impression(let impression): key = impression.subject.installId
        case .grant(let grant): key = grant.subject.installId
        case .order(let order): key = order.orderId
        case .previewLink(let link): key = link.subject.installId
        }
        return symbols.string(key).stableHash
    }

    @Test func theGeneratedDataCoversEveryBucket() throws {
        let state = partialState(try Self.lines)
        #expect(try Self.lines.count > 6000)
        for type in EventType.allCases { #expect(state.accounting.accepted(type) > 0, "no \(type.name)") }
        #expect(state.accounting.rejectedTotal > 0)
        #expect(state.accounting.ignored(.blank) > 0)
    }

    @Test func theAccountingAlwaysSumsToTheLinesRead() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<5 {
            let sample = Array(try Self.lines.shuffled(using: &random).prefix(Int.random(in: 100...3000, using: &random)))
            let accounting = partialState(sample).accounting
            let buckets = accounting.acceptedTotal + IgnoreReason.allCases.reduce(0) { $0 + accounting.ignored($1) }
                + accounting.rejectedTotal
            #expect(accounting.lines == sample.count)
            #expect(buckets == sample.count)
        }
    }

    @Test(arguments: 1...8)
    func partitionedShuffledInputMergesToTheSameBytes(partitions: Int) throws {
        let expected = renderedReports(partialState(try Self.lines))
        var random = SeededRandom(seed: UInt64(partitions))
        var byKey = [[String]](repeating: [], count: partitions)
        for line in try Self.lines.shuffled(using: &random) {
            byKey[Int(partitionKey(line) % UInt64(partitions))].append(line)
        }
        var merged = PartialState()
        for partition in byKey.shuffled(using: &random) { merged.merge(partialState(partition)) }
        #expect(renderedReports(merged) == expected)

        // Arbitrary splits (not by key) merge to the same result too.
        var arbitrary = [[String]](repeating: [], count: partitions)
        for line in try Self.lines { arbitrary[Int.random(in: 0..<partitions, using: &random)].append(line) }
        var mergedArbitrary = PartialState()
        for partition in arbitrary.reversed() { mergedArbitrary.merge(partialState(partition.shuffled(using: &random))) }
        #expect(renderedReports(mergedArbitrary) == expected)
        #expect(mergedArbitrary.accounting == merged.accounting)
        #expect(merged.accounting == partialState(try Self.lines).accounting)
    }

    @Test func aPreviewEventAddedAnywhereChangesExposureOnlyThroughTheUnitScopeRule() throws {
        let base = partialState(try Self.lines)
        let before = base.joined(scope: .event).exposureResult(configuration: nil)
        var random = SeededRandom(seed: 99)
        for _ in 0..<20 {
            // A preview decision for a random campaign and a random or new install.
            let campaign = ["spring-banner", "checkout-test", "onboarding", "new-campaign"].randomElement(using: &random)!
            let install = "install-\(Int.random(in: 0..<5000, using: &random))"
            let line = #"{"type":"decision","ts":"2026-03-02T10:00:00Z","installId":"\#(install)","campaignId":"\#(campaign)","variantId":"v","isPreview":true}"#
            var lines = try Self.lines
            lines.insert(line, at: Int.random(in: 0...lines.count, using: &random))
            let after = partialState(lines).joined(scope: .event).exposureResult(configuration: nil)
            // Under event scope a flagged event changes no exposure row at all.
            #expect(ExposureReport.csv(after.campaigns) == ExposureReport.csv(before.campaigns))
            // Under unit scope it changes exposure exactly as removing the install's clean events of that campaign.
            let withPreview = partialState(lines).joined(scope: .unit).exposureResult(configuration: nil)
            let withoutInstall = partialState(try Self.lines.filter { !isCleanEvent($0, campaign: campaign, install: install) })
                .joined(scope: .unit).exposureResult(configuration: nil)
            #expect(ExposureReport.csv(withPreview.campaigns) == ExposureReport.csv(withoutInstall.campaigns))
        }
    }

    /// Whether the line is a clean (not preview, not denied) decision, impression or grant of the campaign from the install.
    func isCleanEvent(_ line: String, campaign: String, install: String) -> Bool {
        guard let (event, symbols) = acceptedEventWithSymbols(line) else { return false }
        let (campaignId, subject, isPreview): (Symbol, GronaSubject, Bool)
        switch event {
        case .decision(let event): (campaignId, subject, isPreview) = (event.campaignId, event.subject, event.isPreview)
        case .impression(let event): (campaignId, subject, isPreview) = (event.campaignId, event.subject, event.isPreview)
        case .grant(let event): (campaignId, subject, isPreview) = (event.campaignId, event.subject, event.isPreview)
        default: return false
        }
        return symbols.string(campaignId) == ByteString(campaign) && symbols.string(subject.installId) == ByteString(install)
            && !isPreview && subject.consent != .denied
    }

    @Test func jobsDoNotChangeTheReports() throws {
        let outputs = try reportsByJobs(events: 20_000, files: 5, seed: 3, jobs: [1, 2, 3])
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
    }

    @Test func aSingleFileInflatedAndParsedOnTwoThreadsGivesTheSameReports() throws {
        let outputs = try reportsByJobs(events: 30_000, files: 1, seed: 8, jobs: [1, 2, 4])
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
    }

    @Test func theOrderOfInputFilesOnTheCommandLineChangesNoByte() throws {
        let directory = try temporaryDirectory("order")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summary = try LogGenerator.generate(
            GeneratorOptions(events: 9000, files: 3, seed: 12, badLineShare: 0.03), into: directory + "/in")
        var outputs: [[String: String]] = []
        for (index, order) in [summary.files, summary.files.reversed(), [summary.files[1], summary.files[2], summary.files[0]]].enumerated() {
            let out = directory + "/out-\(index)"
            _ = try Pipeline.run(RunOptions(inputs: order, outputDirectory: out, jobs: 2, maxRejectRate: 1))
            outputs.append(try reportContents(out))
        }
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0] == outputs[2])
        #expect(outputs[0]["rejects.ndjson"]?.isEmpty == false)
    }

    /// The reports of one generated set, run once per `--jobs` value.
    func reportsByJobs(events: Int, files: Int, seed: UInt64, jobs: [Int]) throws -> [[String: String]] {
        let directory = try temporaryDirectory("jobs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summary = try LogGenerator.generate(
            GeneratorOptions(events: events, files: files, seed: seed, badLineShare: 0.02), into: directory + "/in")
        #expect(summary.files.count == files)
        return try jobs.map { jobs in
            let out = directory + "/out-\(jobs)"
            _ = try Pipeline.run(RunOptions(inputs: [directory + "/in"], outputDirectory: out, jobs: jobs, maxRejectRate: 1))
            return try reportContents(out)
        }
    }
}
