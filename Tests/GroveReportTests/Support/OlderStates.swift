import Testing

/// A night on a state an older release wrote: the three days of `Tests/Fixtures/state-v1` run
/// with `--state` on a copy of `Tests/Fixtures/<fixture>/state.sqlite` (which ingested the first
/// two) into `night/`, and once without a state into `single/`; both must succeed.
func nightOnOlderState(_ fixture: String) throws -> (directory: String, state: String) {
    let directory = try temporaryDirectory()
    let state = directory + "/state.sqlite"
    try writeFile(state, try readFile(packageRoot + "/Tests/Fixtures/\(fixture)/state.sqlite"))
    let days = ["2026-03-02", "2026-03-03", "2026-03-04"].map { packageRoot + "/Tests/Fixtures/state-v1/events-\($0).ndjson.gz" }
    let single = try execute(["run", "--out", directory + "/single", "--max-reject-rate", "1"] + days)
    #expect(single.status == 0, "\(single.stderr)")

    let night = try execute(["run", "--state", state, "--out", directory + "/night", "--max-reject-rate", "1"] + days)
    #expect(night.status == 0, "\(night.stderr)")
    return (directory, state)
}
