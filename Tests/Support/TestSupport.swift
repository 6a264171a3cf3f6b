import Foundation
import Testing
@testable import GroveReport

/// Classifies one line given as a string.
func classify(_ line: String) -> LineOutcome {
    classify(bytes: Array(line.utf8))
}

/// Classifies raw bytes.
func classify(bytes: [UInt8]) -> LineOutcome {
    var symbols = SymbolTable()
    return classifyInterning(bytes, &symbols)
}

/// Classifies raw bytes, interning into `symbols`.
func classifyInterning(_ bytes: [UInt8], _ symbols: inout SymbolTable) -> LineOutcome {
    var classifier = LineClassifier()
    return bytes.withUnsafeBufferPointer { classifier.classify($0, &symbols) }
}

/// The reject reason text of a line, or nil when it was not rejected.
func rejectReason(_ line: String) -> String? {
    if case .rejected(let reason) = classify(line) { return reason.text.description }
    return nil
}

/// The accepted event of a line, or nil.
func acceptedEvent(_ line: String) -> Event? {
    acceptedEventWithSymbols(line)?.0
}

/// The accepted event of a line with the table its symbols belong to, or nil.
func acceptedEventWithSymbols(_ line: String) -> (Event, SymbolTable)? {
    var symbols = SymbolTable()
    if case .accepted(let event) = classifyInterning(Array(line.utf8), &symbols) { return (event, symbols) }
    return nil
}

/// Feeds lines (NDJSON without newlines) straight into a partial state, as one worker would.
func partialState<State: WorkerState>(_ lines: [String], as _: State.Type = PartialState.self) -> State {
    var state = State()
    var classifier = LineClassifier()
    for line in lines {
        let outcome = Array(line.utf8).withUnsafeBufferPointer { classifier.classify($0, &state.symbols) }
        state.accounting.count(outcome)
        if case .accepted(let event) = outcome { state.add(event) }
    }
    return state
}

/// A fresh empty directory under the system temporary directory.
func temporaryDirectory(_ name: String = #function) throws -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let path = NSTemporaryDirectory() + "grove-report-tests/\(safe)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes bytes to a file, creating parent directories.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func readFile(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The standard output of a system command; records an issue when it fails.
func commandOutput(_ arguments: [String]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed")
    return [UInt8](data)
}

/// gzip-compresses bytes with the system's `gzip` (one member, no name or time stamp).
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let directory = try temporaryDirectory("gzip")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try writeFile(directory + "/plain", bytes)
    return try commandOutput(["gzip", "-c", "-n", directory + "/plain"])
}

/// Decompresses a file with the system's `gzip`, an independent reader.
func gunzip(_ path: String) throws -> [UInt8] {
    try commandOutput(["gzip", "-dc", path])
}

/// A line-oriented NDJSON text from lines.
func ndjson(_ lines: [String]) -> [UInt8] {
    Array(lines.map { $0 + "\n" }.joined().utf8)
}
