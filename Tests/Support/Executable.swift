import Foundation

/// The result of running the built `grove-report` executable.
struct ExecutionResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// True when `status` is the number of the signal that ended the process.
    var killedBySignal = false
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

/// Runs the executable (or another, `executable`) with `arguments` in `directory`, feeding
/// `stdin`; `environment` adds to (or, with a nil value, removes from) this process's environment.
func execute(
    _ arguments: [String], in directory: String? = nil, stdin: [UInt8] = [], environment: [String: String?] = [:],
    executable: String = executablePath
) throws -> ExecutionResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
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
        stderr: String(decoding: try readFile(scratch + "/stderr"), as: UTF8.self),
        killedBySignal: process.terminationReason == .uncaughtSignal)
    try FileManager.default.removeItem(atPath: scratch)
    return result
}

/// A run of the executable that is still going: its standard input is a pipe the test controls.
struct RunningExecution {
    let process: Process
    let input: Pipe
    let stderrPath: String

    /// Starts the executable with `arguments` in `directory`; it waits for input on the pipe.
    init(_ arguments: [String], in directory: String? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        input = Pipe()
        process.standardInput = input
        stderrPath = try temporaryDirectory("running") + "/stderr"
        try writeFile(stderrPath, [])
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Ends the input and waits for the exit status.
    func finish(_ bytes: [UInt8] = []) throws -> ExecutionResult {
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        return try wait()
    }

    func wait() throws -> ExecutionResult {
        process.waitUntilExit()
        return ExecutionResult(
            status: process.terminationStatus, stdout: "",
            stderr: String(decoding: try readFile(stderrPath), as: UTF8.self),
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }
}
