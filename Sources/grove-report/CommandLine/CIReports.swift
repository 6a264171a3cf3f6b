import Foundation
import GroveReport

/// Writes the files of the CI formats `validate` was asked for: the JUnit file (atomically, like
/// every report) and the GitHub step summary, appended. The workflow commands go to stdout.
enum CIReports {
    static func writeJUnit(_ audit: PreviewAudit, to path: String) throws(OutputError) {
        try OutputDirectory.writeAlone(JUnitReport.xml(audit), to: path)
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

    private static func append(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path) }
        defer { close(descriptor) }
        guard WholeWrite.write(bytes, to: descriptor) else { throw .cannotWrite(path: path) }
    }
}
