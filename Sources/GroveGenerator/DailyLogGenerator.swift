import Foundation
import GroveReport

/// `generate --days D`: one file per simulated day, `events-2026-03-02.ndjson.gz`, …, each
/// holding the lines written while the simulated clock was on that day (so a straggler whose
/// `ts` is before midnight lands in the next day's file, as in real exports), plus the lines
/// delivered late into it. Journeys cross midnight (`MultiDayJourneys`).
enum DailyLogGenerator {
    static func generate(_ options: GeneratorOptions, days: Int, into directory: String) throws(GeneratorError) -> GeneratorSummary {
        let journeys = MultiDayJourneys(days: days)
        var stream = EventStream(seed: options.seed, lines: options.events, defectShare: options.badLineShare,
                                 shape: options.shape, bufferCapacity: LogGenerator.chunkSize + 64 * 1024, journeys: journeys)
        var late = LateDeliveries(seed: options.seed)
        var summary = GeneratorSummary(files: [], lines: 0, badLines: 0, ignoredLines: 0)
        var day = 0
        var writer = try openDay(0, in: directory, summary: &summary)
        try writer.write(late.release(day: 0))

        for _ in 0..<options.events {
            let lineStart = stream.buffer.bytes.count
            switch stream.appendLine() {
            case .event: break
            case .rejected: summary.badLines += 1
            case .ignored: summary.ignoredLines += 1
            }
            summary.lines += 1
            let lineDay = min(days - 1, max(0, Int((stream.now - SimulatedClock.start) / MultiDayJourneys.day)))
            let deliveryDay = late.deliveryDay(forLineOf: lineDay)
            if lineDay > day || deliveryDay > lineDay {
                let line = stream.cutBuffer(from: lineStart)
                while day < lineDay {
                    try writer.write(stream.buffer.bytes)
                    stream.clearBuffer()
                    try writer.finish()
                    day += 1
                    writer = try openDay(day, in: directory, summary: &summary)
                    try writer.write(late.release(day: day))
                }
                if deliveryDay > lineDay {
                    late.hold(line, until: deliveryDay)
                } else {
                    try writer.write(line)
                }
            }
            if stream.buffer.bytes.count >= LogGenerator.chunkSize {
                try writer.write(stream.buffer.bytes)
                stream.clearBuffer()
            }
        }
        try writer.write(stream.buffer.bytes)
        stream.clearBuffer()
        while day < days - 1 {
            try writer.finish()
            day += 1
            writer = try openDay(day, in: directory, summary: &summary)
            try writer.write(late.release(day: day))
        }
        try writer.write(late.releaseAll())
        try writer.finish()
        return summary
    }

    /// `events-2026-03-02.ndjson.gz` for day 0: dates sort byte-wise in time order.
    static func fileName(day: Int) -> String {
        let days = Int(SimulatedClock.start / MultiDayJourneys.day) + day
        let (year, month, dayOfMonth) = CivilDate.from(daysSinceEpoch: days)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "events-\(year)-\(twoDigits(month))-\(twoDigits(dayOfMonth)).ndjson.gz"
    }

    private static func openDay(_ day: Int, in directory: String,
                                summary: inout GeneratorSummary) throws(GeneratorError) -> GzipFileWriter {
        let path = (directory as NSString).appendingPathComponent(fileName(day: day))
        summary.files.append(path)
        return try GzipFileWriter(path: path)
    }
}
