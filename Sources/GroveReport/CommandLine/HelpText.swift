/// The `--help` texts of the tool and its subcommands.
public enum HelpText {
    public static func forCommand(_ name: String) -> String? {
        switch name {
        case "run": run
        case "validate": validate
        case "generate": generate
        default: nil
        }
    }

    public static let tool = """
        grove-report: attribution and exposure reports from Grona and FunnelsGrove NDJSON logs.

        USAGE: grove-report <command> [options]

        COMMANDS:
          run        Read logs and write the reports (default: SampleData/ into Reports/).
          validate   Read logs and print the preview audit; exit 3 on any violation.
          generate   Write a seeded synthetic log set.

        Run 'grove-report <command> --help' for a command's options.

        EXIT CODES:
          0  ok
          1  input errors, rejected/lines above --max-reject-rate, or a failed leak check
          2  usage or configuration error
          3  validate found violations

        """

    static let analysisOptions = """
          INPUT                      Files, directories (walked for .ndjson, .jsonl, .gz) or - for stdin.
          --config FILE              Grona configuration export (weights, enabled flags).
          --preview-scope unit|event unit (default): drop every event of a campaign's preview installs;
                                     event: drop only flagged events.
          --jobs N                   Worker threads (default: the number of cores).
          --max-reject-rate R        Fail (exit 1) when rejected/lines exceeds R (default 0.01).
          --rejects-raw              Add the redacted raw line to rejects.ndjson.
        """

    public static let run = """
        USAGE: grove-report run [INPUT...] [--out DIR] [options]

        Reads the logs and writes attribution.csv/json, exposure.csv/json, preview_audit.json,
        summary.json and rejects.ndjson into DIR. With no INPUT it reads SampleData/.

        OPTIONS:
          --out DIR                  Output directory (default: Reports).
        \(analysisOptions)

        """

    public static let validate = """
        USAGE: grove-report validate [INPUT...] [--out DIR] [options]

        Runs the same pipeline and prints the preview audit. Exit 3 when any violation is found,
        1 on input errors or too many rejected lines, 0 otherwise. Writes reports only with --out.

        OPTIONS:
          --out DIR                  Also write every report into DIR.
        \(analysisOptions)

        """

    public static let generate = """
        USAGE: grove-report generate --out DIR [--events N] [--seed S] [--files F] [--bad-share R]

        Writes a seeded synthetic log set: every event type and situation of the spec (preview
        testers, retries, conflicts, duplicates, orphans) and a share of bad lines. The same
        options always write the same bytes.

        OPTIONS:
          --out DIR        Output directory (created if missing).
          --events N       Lines to write (default 100000).
          --seed S         Random seed (default 1).
          --files F        Number of .ndjson.gz files (default 4).
          --bad-share R    Share of bad lines, 0 to 1 (default 0.002).

        """
}
