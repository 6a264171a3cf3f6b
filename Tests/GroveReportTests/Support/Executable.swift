import Foundation

/// The result of running the built `grove-report` executable.
struct ExecutionResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built executable: beside the test bundle in the build products directory.
let executablePath: String = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = directory.appendingPathComponent("grove-report").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory.deleteLastPathComponent()
    }
    return packageRoot + "/.build/debug/grove-report"
}()

/// Runs the executable with `arguments` in `directory`, feeding `stdin`; `environment` adds to
/// (or, with a nil value, removes from) this process's environment.
func execute(
    _ arguments: [String], in directory: String? = nil, stdin: [UInt8] = [], environment: [String: String?] = [:]
) throws -> ExecutionResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath)
    process.arguments = arguments
    if !environment.isEmpty {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
    }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let scratch = try temporaryDirectory("execute")
    let inputPath = scratch + "/stdin"
    try writeFile(inputPath, stdin)
    try writeFile(scratch + "/stdout", [])
    try writeFile(scratch + "/stderr", [])
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/stdout"))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/stderr"))
    try process.run()
    process.waitUntilExit()
    let result = ExecutionResult(
        status: process.terminationStatus,
        stdout: String(decoding: try readFile(scratch + "/stdout"), as: UTF8.self),
        stderr: String(decoding: try readFile(scratch + "/stderr"), as: UTF8.self))
    try FileManager.default.removeItem(atPath: scratch)
    return result
}
