/// The CI formats of `validate` (docs/AUDIT.md, validate): `--junit FILE` and `--github`.
struct CIReportOptions: Sendable {
    /// `--junit FILE`: where to write the JUnit XML report.
    var junitPath: String?
    /// `--github`: print `::error` workflow commands and append to the step summary.
    var github = false

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
                throw UsageError("--github takes no value", command: .validate)
            } else if word == "--junit" || word.hasPrefix("--junit=") {
                guard options.junitPath == nil else { throw UsageError("--junit is given twice", command: .validate) }
                var path = String(word.dropFirst("--junit=".count))
                if word == "--junit" {
                    guard index < words.count else { throw UsageError("--junit needs a value", command: .validate) }
                    path = words[index]
                    index += 1
                }
                guard !path.isEmpty else { throw UsageError("--junit needs a file name", command: .validate) }
                options.junitPath = path
            } else {
                rest.append(word)
            }
        }
        words = rest
        return options
    }
}
