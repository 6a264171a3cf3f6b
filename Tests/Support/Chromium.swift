import Foundation

/// Headless chromium, as the browser tests drive it: found on PATH, a fresh profile per call, and
/// a time limit, so a hung browser fails the test instead of hanging it.
struct Chromium {
    let path: String

    /// Why the browser could not do what a test asked.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `chromium` on PATH; CI has it because `.ci/install-deps` installs Debian's package.
    static func onPath() throws -> Chromium {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return Chromium(path: candidate) }
        }
        throw Failure(description: "chromium is not on PATH: run .ci/install-deps (it installs Debian's chromium)")
    }

    /// Renders `file` in a window of `width`×`height` and returns the PNG's bytes.
    func screenshot(of file: String, width: Int, height: Int, timeout: TimeInterval) throws -> [UInt8] {
        let directory = try temporaryDirectory("screenshot")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let png = directory + "/page.png"
        _ = try run(["--screenshot=\(png)", "--window-size=\(width),\(height)", "--hide-scrollbars", fileURL(file)], timeout: timeout)
        return try readFile(png)
    }

    /// Loads `file` and returns the DOM as chromium serializes it once the page has loaded.
    func dumpDOM(of file: String, timeout: TimeInterval) throws -> String {
        String(decoding: try run(["--dump-dom", fileURL(file)], timeout: timeout), as: UTF8.self)
    }

    private func fileURL(_ file: String) -> String {
        URL(fileURLWithPath: file).absoluteString
    }

    /// Runs chromium headless with a fresh profile; returns its stdout. Fails when it exits
    /// non-zero or is still running after `timeout` seconds (then it is killed).
    private func run(_ arguments: [String], timeout: TimeInterval) throws -> [UInt8] {
        let scratch = try temporaryDirectory("chromium")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try writeFile(scratch + "/stdout", [])
        try writeFile(scratch + "/stderr", [])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--user-data-dir=\(scratch)/profile",
        ] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/stdout"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/stderr"))
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw Failure(description: "chromium did not finish within \(Int(timeout)) s: \(arguments.joined(separator: " "))")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let stderr = String(decoding: try readFile(scratch + "/stderr"), as: UTF8.self)
            throw Failure(description: "chromium exited \(process.terminationStatus): \(stderr.suffix(2_000))")
        }
        return try readFile(scratch + "/stdout")
    }
}

/// The text of a serialized DOM, as a reader sees it: `<style>` blocks and tags removed,
/// character references decoded.
func domText(_ dom: String) -> String {
    var text = dom.replacingOccurrences(of: #"(?s)<style[^>]*>.*?</style>"#, with: "", options: .regularExpression)
    text = text.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression)
    for (reference, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#x27;", "'"), ("&#39;", "'"), ("&nbsp;", "\u{A0}"), ("&amp;", "&")] {
        text = text.replacingOccurrences(of: reference, with: character)
    }
    return text
}
