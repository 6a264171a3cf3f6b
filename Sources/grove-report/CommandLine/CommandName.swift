/// The subcommands of `grove-report`: the one list that the parser, the help and the messages
/// read, so that a command added here is known to all three.
enum CommandName: String, CaseIterable, Sendable, CustomStringConvertible {
    case run, validate, generate, state
    /// The stage filters of a distributed run (docs/SPARK.md): for an engine, not for people.
    case partial, merge, render

    /// The commands people type, in the order the help lists them.
    static let everyday: [CommandName] = allCases.filter { !$0.isStageFilter }

    var isStageFilter: Bool {
        switch self {
        case .partial, .merge, .render: true
        case .run, .validate, .generate, .state: false
        }
    }

    var description: String { rawValue }

    /// The command's line in the tool's help.
    var summary: String {
        switch self {
        case .run: "Read logs and write the reports (default: SampleData/ into Reports/)."
        case .validate: "Read logs and print the preview audit; exit 3 on any violation."
        case .generate: "Write a seeded synthetic log set."
        case .state: "Describe a --state file (its schema version, runs and contents), check or compact it."
        case .partial: "One input file on stdin → stage records on stdout."
        case .merge: "Stage records → merged records (after a shuffle: --join N)."
        case .render: "Final stage records → the report files."
        }
    }

    /// "run, validate, generate or state": `names` for a message, the last joined by `conjunction`.
    static func listed(_ names: [CommandName], conjunction: String) -> String {
        let words = names.map(\.rawValue)
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
