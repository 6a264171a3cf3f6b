#if canImport(Glibc)
import Glibc
#endif

/// Where a `--state` file is, compared with where a run writes: a state that a report's rename
/// would replace (`--state out/summary.json --out out`) is a usage error, found before anything
/// is written. Paths are compared resolved (links, `.` and `..`), not as strings.
public enum StatePath {
    /// Every name a run writes in its output directory (besides temporaries, which
    /// `StaleTemporaries` recognizes by their form).
    public static let reportNames: [String] = [
        "attribution.csv", "attribution.json", "exposure.csv", "exposure.json", "preview_audit.json", "report.html",
        "changes.csv", RejectsLog.fileName, OutputDirectory.summaryName, ExposureDailyReport.fileName, AttributionDailyReport.fileName,
    ]

    /// The path of the file in `outputDirectory` that `statePath` names, when it is one a run
    /// writes there (a report, or a temporary a run may remove); nil otherwise.
    public static func reportNamed(by statePath: String, outputDirectory: String) -> String? {
        let state = resolved(statePath)
        let directory = resolved(outputDirectory)
        guard let slash = state.lastIndex(of: "/"), String(state[..<slash]) == directory || (directory == "/" && slash == state.startIndex)
        else { return nil }
        let name = String(state[state.index(after: slash)...])
        guard reportNames.contains(name) || StaleTemporaries.ownerPID(of: name) != nil else { return nil }
        return outputDirectory.hasSuffix("/") ? outputDirectory + name : outputDirectory + "/" + name
    }

    /// `path` made absolute and resolved as far as it exists (`realpath`), the rest of it taken
    /// word by word (`.` dropped, `..` a step up): the same file gives the same text however it
    /// is named.
    static func resolved(_ path: String) -> String {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var base: String
        if path.hasPrefix("/") {
            base = "/"
        } else {
            base = currentDirectory()
        }
        // The longest prefix that exists, resolved by the system.
        var rest: [String] = []
        while true {
            let candidate = join(base, components)
            if let real = realPath(candidate) {
                base = real
                break
            }
            guard let last = components.popLast() else { break }
            rest.insert(last, at: 0)
        }
        var result = base
        for component in rest {
            switch component {
            case ".": continue
            case "..":
                if let slash = result.lastIndex(of: "/") { result = slash == result.startIndex ? "/" : String(result[..<slash]) }
            default: result = result == "/" ? "/" + component : result + "/" + component
            }
        }
        return result
    }

    private static func join(_ base: String, _ components: [String]) -> String {
        components.isEmpty ? base : (base == "/" ? "" : base) + "/" + components.joined(separator: "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func currentDirectory() -> String {
        guard let directory = getcwd(nil, 0) else { return "/" }
        defer { free(directory) }
        return String(cString: directory)
    }
}
