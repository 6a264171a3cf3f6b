import Foundation
@testable import GroveGenerator
@testable import GroveReport

/// The report files a run writes.
let reportNames = [
    "attribution.csv", "attribution.json", "exposure.csv", "exposure.json", "preview_audit.json", "report.html", "summary.json",
    "rejects.ndjson", "exposure_daily.csv", "attribution_daily.csv",
]

/// The package root, found from this source file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
    }
    return FileManager.default.currentDirectoryPath
}()

/// Reads every report in `directory`, with the one run-dependent value (`wall_seconds`) blanked.
func reportContents(_ directory: String) throws -> [String: String] {
    var contents: [String: String] = [:]
    for name in reportNames {
        var text = String(decoding: try readFile(directory + "/" + name), as: UTF8.self)
        if name == "summary.json" {
            text = text.replacingOccurrences(of: #""wall_seconds": [0-9.e+-]+"#, with: #""wall_seconds": 0"#, options: .regularExpression)
        }
        contents[name] = text
    }
    return contents
}

/// Renders the four analysis reports of a merged partial state, for byte comparisons.
func renderedReports(_ state: PartialState, configuration: Configuration? = nil, scope: PreviewScope = .unit) -> [UInt8] {
    renderedReports(state.joined(scope: scope), configuration: configuration)
}

/// Renders the four analysis reports of a joined state, for byte comparisons.
func renderedReports(_ joined: JoinedState, configuration: Configuration? = nil) -> [UInt8] {
    let attribution = joined.attributionResult()
    let exposure = joined.exposureResult(configuration: configuration)
    return AttributionReport.csv(attribution) + AttributionReport.json(attribution)
        + ExposureReport.csv(exposure.campaigns) + ExposureReport.json(exposure.campaigns)
        + PreviewAuditReport.json(exposure.audit) + ExposureDailyReport.csv(exposure) + AttributionDailyReport.csv(attribution)
}

/// Decompresses the generator's files into lines, with the system's gzip.
func generatedLines(events: Int, seed: UInt64, files: Int = 2) throws -> [String] {
    let directory = try temporaryDirectory("generated")
    let summary = try LogGenerator.generate(
        GeneratorOptions(events: events, files: files, seed: seed, badLineShare: 0.02), into: directory)
    var lines: [String] = []
    for file in summary.files {
        lines += try gunzip(file).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }
    try FileManager.default.removeItem(atPath: directory)
    return lines
}
