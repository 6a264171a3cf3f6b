import Foundation
import GroveReport

/// Writes the files of the CI formats `validate` was asked for: the JUnit file (atomically, like
/// every report) and the GitHub step summary, appended. The workflow commands go to stdout.
enum CIReports {
    static func writeJUnit(_ audit: PreviewAudit, to path: String) throws(OutputError) {
        try writeAtomically(JUnitReport.xml(audit), to: path)
    }

    /// Appends the Markdown table of violations to `$GITHUB_STEP_SUMMARY` when it names a file.
    static func appendStepSummary(
        _ audit: PreviewAudit, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(OutputError) {
        // GitHub gives every step its own summary file; other tools may share it, so append.
        if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            try append(Array(GitHubWorkflowCommands.stepSummary(audit).utf8), to: summary)
        }
    }

    /// Writes beside the target under a temporary name, then renames it into place.
    private static func writeAtomically(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .cannotWrite(path: path)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .cannotWrite(path: path)
        }
    }

    private static func append(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw .cannotWrite(path: path) }
            written += result
        }
    }
}

extension CIReportOptions {
    /// Takes `--junit FILE` (or `--junit=FILE`) and `--github` out of `validate`'s words, before
    /// `--` ends the options; the rest are parsed as `run`'s.
    static func extract(from words: inout [String]) throws(UsageError) -> CIReportOptions {
        var options = CIReportOptions()
        var rest: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                rest += words[(index - 1)...]
                break
            }
            if word == "--github" {
                options.github = true
            } else if word.hasPrefix("--github=") {
                throw UsageError("--github takes no value", command: "validate")
            } else if word == "--junit" || word.hasPrefix("--junit=") {
                guard options.junitPath == nil else { throw UsageError("--junit is given twice", command: "validate") }
                var path = String(word.dropFirst("--junit=".count))
                if word == "--junit" {
                    guard index < words.count else { throw UsageError("--junit needs a value", command: "validate") }
                    path = words[index]
                    index += 1
                }
                guard !path.isEmpty else { throw UsageError("--junit needs a file name", command: "validate") }
                options.junitPath = path
            } else {
                rest.append(word)
            }
        }
        words = rest
        return options
    }
}
