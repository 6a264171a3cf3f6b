/// A mistake on the command line: one line saying what is wrong and what to do (exit 2).
///
/// Only the executable parses words, so only it can make this mistake: the library's own
/// failures (`OutputError`, `StateError`, `ConfigurationError`…) are turned into statuses by
/// `CommandFailure`.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The subcommand whose help to point at, if any.
    var command: CommandName?

    init(_ message: String, command: CommandName? = nil) {
        self.message = message
        self.command = command
    }

    var description: String {
        let help = command.map { "grove-report \($0) --help" } ?? "grove-report --help"
        return "grove-report: \(message) (see '\(help)')"
    }
}
