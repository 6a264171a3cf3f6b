import Foundation
import Testing
@testable import grove_report

/// The `--help` text of the tool and of every command, against golden files in
/// `Tests/Fixtures/help/`. After a deliberate change to a help text, regenerate
/// them with `GROVE_REPORT_REGENERATE_GOLDEN=1 swift test --filter HelpGoldenTests` and review the
/// diff before committing it.
struct HelpGoldenTests {
    static let commands = ["run", "validate", "generate", "state", "partial", "merge", "render"]

    @Test func everyCommandHasAGoldenHelp() throws {
        let golden = try FileManager.default.contentsOfDirectory(atPath: goldenHelpDirectory).sorted()
        #expect(golden == (["tool"] + Self.commands).map { $0 + ".txt" }.sorted())
    }

    @Test(arguments: [nil] + commands)
    func theHelpTextIsTheGoldenOne(_ command: String?) throws {
        let arguments = command.map { [$0, "--help"] } ?? ["--help"]
        let result = try execute(arguments)
        let topic = command ?? "tool"
        if ProcessInfo.processInfo.environment["GROVE_REPORT_REGENERATE_GOLDEN"] == "1" {
            try writeFile(goldenHelpDirectory + "/\(topic).txt", Array(result.stdout.utf8))
        }
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == (try goldenHelp(topic)))
        // The executable prints the text of `HelpText`, whatever the way it is asked.
        #expect(result.stdout == (command.map { HelpText.forCommand($0) } ?? HelpText.tool))
    }

    @Test func helpForAnUnknownTopicIsAUsageError() throws {
        let result = try execute(["help", "frobnicate"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "grove-report: no help for 'frobnicate': the commands are run, validate, generate and state (see 'grove-report --help')\n")
    }
}

let goldenHelpDirectory = packageRoot + "/Tests/Fixtures/help"

/// The golden `--help` text of `topic` (`tool` for the tool's own).
func goldenHelp(_ topic: String) throws -> String {
    String(decoding: try readFile(goldenHelpDirectory + "/\(topic).txt"), as: UTF8.self)
}
