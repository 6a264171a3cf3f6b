import Foundation
import Testing
@testable import GroveGenerator
@testable import GroveReport
@testable import grove_report

/// `generate --days`: one file per day, journeys that cross midnight within their limits.
struct MultiDayGeneratorTests {
    /// Sixteen days of 6,000 lines — longer than the longest journey — generated and read back
    /// once for the journey tests.
    static let sixteenDays = Result { try GeneratedJourneys.generate(events: 96_000, days: 16, seed: 11) }

    private static let day = GeneratedJourneys.day
    private static let hour = GeneratedJourneys.hour

    @Test func theSameOptionsWriteTheSameBytesAndTheDaysChangeThem() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = GeneratorOptions(events: 12_000, seed: 4, days: 3)
        let a = try LogGenerator.generate(options, into: directory + "/a")
        let b = try LogGenerator.generate(options, into: directory + "/b")
        let classic = try LogGenerator.generate(GeneratorOptions(events: 12_000, files: 3, seed: 4), into: directory + "/c")
        #expect(try a.files.map(readFile) == b.files.map(readFile))
        #expect(try a.files.map(readFile) != classic.files.map(readFile))
        #expect(a.lines == 12_000 && a.badLines == b.badLines && a.ignoredLines == b.ignoredLines)
    }

    @Test func writesOneFilePerDayNamedByItsDateEvenWhenSomeStayEmpty() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summary = try LogGenerator.generate(GeneratorOptions(events: 6_000, seed: 5, days: 3), into: directory)
        #expect(summary.files.map { ($0 as NSString).lastPathComponent }
            == ["events-2026-03-02.ndjson.gz", "events-2026-03-03.ndjson.gz", "events-2026-03-04.ndjson.gz"])
        let counts = try summary.files.map { path in
            try gunzip(path).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        #expect(counts.reduce(0, +) == 6_000)
        #expect(counts.allSatisfy { abs($0 - 2_000) < 200 }, "\(counts)")

        let few = try LogGenerator.generate(GeneratorOptions(events: 2, seed: 5, days: 4), into: directory + "/few")
        #expect(few.files.count == 4)
        #expect(try few.files.map { try gunzip($0).count }.filter { $0 == 0 }.count >= 2)
        #expect(DailyLogGenerator.fileName(day: 30) == "events-2026-04-01.ndjson.gz")
    }

    @Test func aDayCountBelowOneIsATypedErrorAndDaysExcludeFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: GeneratorError.invalidDayCount(0)) {
            try LogGenerator.generate(GeneratorOptions(events: 10, days: 0), into: directory)
        }
        #expect(throws: UsageError.self) {
            try Command.parse(["generate", "--out", directory, "--days", "3", "--files", "3"])
        }
        guard case .generate(let options, _)? = try? Command.parse(["generate", "--out", directory, "--days", "30"]) else {
            Issue.record("generate --days did not parse")
            return
        }
        #expect(options.days == 30)
    }

    @Test func eachFileHoldsItsDayPlusStragglersAndLinesDeliveredADayOrTwoLate() throws {
        let journeys = try Self.sixteenDays.get()
        var early = 0
        var deliveredLate = 0
        var lines = 0
        for (file, times) in journeys.lineTimes.enumerated() {
            let start = GeneratedJourneys.dayStart(file)
            lines += times.count
            early += times.filter { $0 < start }.count
            // Stragglers are at most 6 hours (and jitter 3 seconds) late; only late deliveries are more.
            deliveredLate += times.filter { $0 < start - 6 * Self.hour - 3_000_000_000 }.count
            // Two days of delivery, a day-old duplicate click and a straggler's 6 hours at most.
            #expect(times.allSatisfy { $0 >= GeneratedJourneys.dayStart(file - 4) }, "file \(file): a line too late")
            // The clock's random walk may end a few minutes after the last midnight.
            let end = GeneratedJourneys.dayStart(file + 1) + (file == journeys.files.count - 1 ? Self.hour : 3_000_000_000)
            #expect(times.allSatisfy { $0 < end }, "file \(file): a line of a later day")
        }
        // 0.2% of the lines are delivered a day or two late; a few duplicate clicks carry the
        // `ts` of a click up to a day old.
        #expect(deliveredLate > lines / 1_000 && deliveredLate < lines / 100, "\(deliveredLate) of \(lines)")
        #expect(early > deliveredLate)
    }

    @Test func opensFollowTheirClicksByUpToThreeDaysOftenFromAnEarlierDaysFile() throws {
        let opens = try Self.sixteenDays.get().opensOfClicks
        #expect(opens.count > 8_000)
        #expect(opens.allSatisfy { $0.delay <= 3 * Self.day }, "\(opens.map(\.delay).max() ?? 0)")
        // Recent references are at most an hour old: only the long memory reaches further.
        let overADay = opens.filter { $0.delay > Self.day }.count
        let crossing = opens.filter(\.crossesFiles).count
        #expect(overADay * 100 > opens.count * 5, "\(overADay) of \(opens.count)")
        #expect(crossing * 100 > opens.count * 8, "\(crossing) of \(opens.count)")
    }

    @Test func bindingsFollowTheirClicksByUpToFourteenDaysOftenFromAnEarlierDaysFile() throws {
        let bindings = try Self.sixteenDays.get().bindingsOfClicks
        #expect(bindings.count > 4_000)
        #expect(bindings.allSatisfy { $0.delay <= 14 * Self.day })
        let overThreeDays = bindings.filter { $0.delay > 3 * Self.day }.count
        let crossing = bindings.filter(\.crossesFiles).count
        #expect(overThreeDays * 100 > bindings.count * 5, "\(overThreeDays) of \(bindings.count)")
        #expect(crossing * 100 > bindings.count * 10, "\(crossing) of \(bindings.count)")
    }

    @Test func ordersComeUpToSevenDaysAfterTheirInstallsLastExposureOftenOnALaterDay() throws {
        let orders = try Self.sixteenDays.get().ordersAfterExposure
        #expect(orders.count > 700)
        #expect(orders.allSatisfy { $0.delay <= 7 * Self.day }, "\(orders.map(\.delay).max() ?? 0)")
        let overADay = orders.filter { $0.delay > Self.day }.count
        let crossing = orders.filter(\.crossesFiles).count
        #expect(overADay * 100 > orders.count * 5, "\(overADay) of \(orders.count)")
        #expect(crossing * 100 > orders.count * 10, "\(crossing) of \(orders.count)")
    }

    @Test func someTestersStartPreviewingDaysAfterTheyWereBucketedAsOrdinaryUsers() throws {
        let journeys = try Self.sixteenDays.get()
        let late = journeys.lateStartingTesters
        #expect(late.count >= 10, "\(late.count) of \(journeys.firstPreview.count)")
        #expect(late.contains { $0.delay > Self.day })
    }

    @Test func scheduledReferencesComeDueAfterTheRecentHorizonAndNeverPastTheirReach() {
        let reach = MemoryReach(maxAge: 2 * Self.day, longShare: 1, scheduleShare: 1)
        var references = ScheduledReferences<Int>(reach: reach)
        var rng = SeededRandom(seed: 3)
        for minute in 0..<1_000 {
            references.schedule(minute, at: Int64(minute) * 60_000_000_000, using: &rng)
        }
        // Nothing is due before the recent horizon has passed.
        #expect(references.takeDue(at: Self.hour - 1) == nil)
        // Two days and eight hours on, only what was created within two days (minutes 480 on)
        // may be taken: the rest is dropped.
        let now = 2 * Self.day + 8 * Self.hour
        var taken: [Int] = []
        while let minute = references.takeDue(at: now) { taken.append(minute) }
        #expect(taken.count > 100 && taken.count <= 520)
        #expect(taken.allSatisfy { $0 >= 480 })
        // Ten days on, whatever is left is too old.
        #expect(references.takeDue(at: 10 * Self.day) == nil)
    }

    @Test func withoutLongMemoryAnEntityMemoryDrawsExactlyAsARecentPool() {
        var memory = EntityMemory<Int>(capacity: 64)
        var pool = RecentPool<Int>(capacity: 64)
        var a = SeededRandom(seed: 8)
        var b = SeededRandom(seed: 8)
        for value in 0..<200 {
            memory.add(value, at: Int64(value), using: &a)
            pool.add(value)
            #expect(memory.randomElement(referencedAt: Int64(value), reach: MultiDayJourneys.binding, using: &a)
                == pool.randomElement(using: &b))
        }
        #expect(a.next() == b.next())
    }
}
