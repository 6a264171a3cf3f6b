import Foundation

/// The `--help` texts of the tool and its subcommands.
enum HelpText {
    /// The help of the command named `name`; nil when no command has that name.
    static func forCommand(_ name: String) -> String? {
        CommandName(rawValue: name).map(forCommand)
    }

    static func forCommand(_ name: CommandName) -> String {
        switch name {
        case .run: run
        case .validate: validate
        case .generate: generate
        case .partial: partial
        case .merge: merge
        case .render: render
        case .state: state
        }
    }

    /// `names` with their summaries, one a line, the summaries in one column.
    private static func summaries(_ names: [CommandName]) -> String {
        names.map { "  " + $0.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n")
    }

    static let tool = """
        grove-report: attribution and exposure reports from Grona and FunnelsGrove NDJSON logs.

        USAGE: grove-report <command> [options]

        COMMANDS:
        \(summaries(CommandName.everyday))

        STAGE FILTERS (for a distributed engine such as Spark; see docs/SPARK.md):
        \(summaries(CommandName.allCases.filter(\.isStageFilter)))

        Run 'grove-report <command> --help' for a command's options.

        EXIT CODES:
          0  ok
          1  input errors, rejected/lines above --max-reject-rate, or a failed leak check
          2  usage or configuration error, or a --state file that is no state or is damaged
          3  validate found violations
          74 the outputs or the state could not be written (full disk, read-only or vanished directory)
          75 the output directory or the state is in use by another run (after --lock-wait)
          When several apply, the first in the order 2, 75, 74, 1, 3 wins.

        """

    static let analysisOptions = """
          INPUT                      Files, directories (walked for .ndjson, .jsonl, .gz) or - for stdin.
          --config FILE              Grona configuration export (weights, enabled flags).
          --preview-scope unit|event unit (default): drop every event of a campaign's preview installs;
                                     event: drop only flagged events.
          --jobs N                   Worker threads (default: the number of cores).
          --inflate zlib|isal|auto   gzip decoder: zlib (default), isal (ISA-L, about twice as fast;
                                     needs libisal.so.2, Debian libisal2), auto (isal when present).
                                     The reports are the same bytes either way.
          --max-reject-rate R        Fail (exit 1) when rejected/lines exceeds R (default 0.01).
          --max-campaigns N          Name at most N campaigns in each report (default 10000); the
                                     others (fewest clicks, or units) are summed as (other campaigns).
          --conversion-window HOURS  An order converts a unit only within HOURS (1-87600) after its
                                     first exposure (default: no limit).
          --bind-window DAYS         A binding attributes its click only within DAYS (1-3650) after
                                     the click (default: no limit).
          --sequential-tuning UNITS  Total units at which the always-valid interval is tightest
                                     (default 5000).
          --rejects-raw              Add the redacted raw line to rejects.ndjson.
          --lock-wait SECONDS        Wait up to SECONDS for another run on the same --out (or, for
                                     run, the same --state), then exit 75 (default 0).
        """

    static let run = """
        USAGE: grove-report run [INPUT...] [--out DIR] [options]

        Reads the logs and writes attribution.csv/json, exposure.csv/json, preview_audit.json,
        report.html, summary.json and rejects.ndjson into DIR. With no INPUT it reads SampleData/.

        With --state FILE, runs add up night by night: inputs the state has ingested (by SHA-256)
        are skipped, new ones are merged into it all or nothing, and the reports (plus
        changes.csv) are those of one run over every input the state holds. With --state and
        no INPUT, nothing is ingested and the reports come from the state.

        OPTIONS:
          --out DIR                  Output directory (default: Reports).
          --state FILE               SQLite state of incremental runs (created when missing).
        \(analysisOptions)

        """

    static let validate = """
        USAGE: grove-report validate [INPUT...] [--out DIR] [options]

        Runs the same pipeline and prints the preview audit and the exposure health warnings.
        Exit 3 when any violation is found, 1 on input errors or too many rejected lines, 0
        otherwise (health warnings change no exit status). Writes reports only with --out.

        OPTIONS:
          --out DIR                  Also write every report into DIR.
          --junit FILE               Also write the audit as JUnit XML (a test case per campaign and
                                     violation, plus the leak check) for GitLab, Jenkins and the like.
          --github                   Also print GitHub Actions ::error commands, and append a Markdown
                                     table to $GITHUB_STEP_SUMMARY when it names a file.
        \(analysisOptions)

        """

    static let state = """
        USAGE: grove-report state FILE [--json | --check | --compact] [--lock-wait SECONDS]

        Prints the schema version of a --state file, its runs (id, start, status, options,
        lines, inputs) and what it holds (keys and rows by kind, bytes by table), while a run
        may be writing it. A run whose status is 'committed' changed the state but could not
        write its reports; the next run writes them.

        OPTIONS:
          --json                 Print the same as JSON, for machines.
          --check                Run SQLite's integrity check instead: exit 0 when it passes, 2 when
                                 the state is damaged (rebuild it from the logs: docs/STATE.md).
          --compact              Rewrite every record kept in several rows as one and give the
                                 freed space back (VACUUM); takes the writer's lock, as a run does.
          --lock-wait SECONDS    Wait up to SECONDS for a run that holds the whole file (as it does
                                 while it closes), then exit 75 (default 0).

        """

    static let generate = """
        USAGE: grove-report generate --out DIR [--events N] [--seed S] [--files F | --days D] [--bad-share R]
                                     [--shape friendly|production]

        Writes a seeded synthetic log set: every event type and situation docs/EVENTS.md describes
        (preview testers, retries, conflicts, duplicates, orphans) and a share of bad lines. The same
        options always write the same bytes.

        OPTIONS:
          --out DIR        Output directory (created if missing).
          --events N       Lines to write (default 100000).
          --seed S         Random seed (default 1).
          --files F        Number of .ndjson.gz files (default 4).
          --days D         One file per simulated day instead (events-2026-03-02.ndjson.gz, …),
                           with journeys that cross midnight: opens up to 3 days after their
                           click, bindings up to 14, orders up to 7 after an exposure, testers
                           who start previewing late, lines delivered a day or two late.
          --bad-share R    Share of bad lines, 0 to 1 (default 0.002).
          --shape S        friendly (default): compact lines. production: lines like real SDK
                           logs (~280 bytes, 5-10 ignored metadata keys on Grona lines, many
                           more distinct installs and clicks), for benchmarks.

        """

    static let partial = """
        USAGE: grove-report partial --name NAME [--index I] [--rejects-raw] < FILE > RECORDS

        Reads one input file (gzip or plain) from standard input, validates and aggregates it as
        `run` does, and writes its partial state as records `KEY<TAB>VALUE`. NAME is how reports
        name the file; I its position among all inputs (orders rejects of a file named twice).

        """

    static let merge = """
        USAGE: grove-report merge [--join 1|2|3] [--preview-scope unit|event] [--bind-window DAYS]
                                  [--conversion-window HOURS] < RECORDS > RECORDS

        Merges records of equal keys (associative and commutative). With --join N it then runs join
        stage N, which needs every record of a key in this one input: run it right after the N-th
        shuffle by key. --preview-scope applies to --join 1 (default unit), --bind-window to
        --join 2 and --conversion-window to --join 3 (default: no limit; as for `run`).

        """

    static let render = """
        USAGE: grove-report render --out DIR [--config FILE] [--max-campaigns N] [--max-reject-rate R]
                                   [--sequential-tuning UNITS] [--rejects-raw] [--wall-seconds S]
                                   [--lock-wait S] < RECORDS

        Writes the report files of `run` from the records left after join stage 3. S is the
        engine's wall time for summary.json; N and UNITS as for `run` (defaults 10000, 5000).
        Exit codes as `run`.

        """
}
