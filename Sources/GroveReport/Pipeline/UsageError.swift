/// A mistake on the command line: one line saying what is wrong and what to do (exit 2).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The subcommand whose help to point at, if any.
    var command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String {
        let help = command.map { "grove-report \($0) --help" } ?? "grove-report --help"
        return "grove-report: \(message) (see '\(help)')"
    }
}
