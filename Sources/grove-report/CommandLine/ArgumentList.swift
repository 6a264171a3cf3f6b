import GroveReport

/// The words after a subcommand, split into inputs and `--option value` pairs.
///
/// Accepts `--name value` and `--name=value`; `--` ends the options; `-` is an input (stdin).
struct ArgumentList {
    let command: CommandName
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Splits `words` for `command`, whose options taking a value and flags are listed.
    init(_ words: [String], command: CommandName, valued: Set<String>, flags knownFlags: Set<String>) throws(UsageError) {
        self.command = command
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            guard !optionsEnded, word.hasPrefix("--") else {
                if !optionsEnded, word.hasPrefix("-"), word != "-" {
                    throw UsageError("unknown option '\(word)'", command: command)
                }
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            let body = word.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value", command: command) }
                flags.insert(name)
            } else if valued.contains(name) {
                guard values[name] == nil else { throw UsageError("--\(name) is given twice", command: command) }
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < words.count else { throw UsageError("--\(name) needs a value", command: command) }
                    values[name] = words[index]
                    index += 1
                }
            } else {
                throw UsageError("unknown option '--\(name)'", command: command)
            }
        }
    }

    func value(_ name: String) -> String? { values[name] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The number given for `--name`, `defaultValue` when absent; a usage error outside `range`.
    func number<Value: LosslessStringConvertible & Comparable>(
        _ name: String, default defaultValue: Value, in range: ClosedRange<Value>
    ) throws(UsageError) -> Value {
        guard let text = value(name) else { return defaultValue }
        guard let number = Value(text), range.contains(number) else {
            throw UsageError(
                "--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }
}
