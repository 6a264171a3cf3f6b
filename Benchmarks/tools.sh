# Sourced by the benchmark scripts (after they define `log`, `die` and `tmp`): the tools they
# need, installed once, and the grove-report binary they measure.

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root to run: $*"
    fi
}

# GNU time measures wall time and peak RSS of each run.
require_gnu_time() {
    [ -x /usr/bin/time ] && return
    log "installing GNU time (apt)"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq time >/dev/null
    [ -x /usr/bin/time ] || die "/usr/bin/time is still missing after installing 'time'"
}

# Sets `bin` to the grove-report to measure: $GROVE_BIN, or a release build (into
# $BENCH_SCRATCH_PATH when set), logged in "$tmp/build.log"; `build_command` to the build's
# command line (empty with $GROVE_BIN).
find_grove_report() {
    if [ -n "${GROVE_BIN:-}" ]; then
        bin=$GROVE_BIN
        build_command=
        [ -x "$bin" ] || die "GROVE_BIN=$bin is not an executable file"
        log "grove-report: $bin (GROVE_BIN)"
        return
    fi
    local build=(swift build -c release)
    if [ -n "${BENCH_SCRATCH_PATH:-}" ]; then build+=(--scratch-path "$BENCH_SCRATCH_PATH"); fi
    build_command="${build[*]}"
    log "building grove-report (${build[*]})"
    .ci/install-deps
    if ! "${build[@]}" >"$tmp/build.log" 2>&1; then
        tail -n 40 "$tmp/build.log" >&2
        die "${build[*]} failed"
    fi
    bin="$("${build[@]}" --show-bin-path)/grove-report"
    log "grove-report: $bin"
}

# Whether two report directories hold the same report bytes, wall_seconds aside.
same_reports() { # dir-a dir-b
    local name
    for name in attribution.csv attribution.json exposure.csv exposure.json preview_audit.json rejects.ndjson; do
        cmp -s "$1/$name" "$2/$name" || return 1
    done
    cmp -s <(grep -v '"wall_seconds"' "$1/summary.json") <(grep -v '"wall_seconds"' "$2/summary.json")
}

# The commit of the working tree's sources, with "+uncommitted" when Sources or Package.swift
# differ from it: what a build of the working tree measures.
source_label() {
    local commit
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    if [ -n "$(git status --porcelain -- Sources Package.swift 2>/dev/null)" ]; then commit="$commit+uncommitted"; fi
    echo "$commit"
}

# valgrind's callgrind counts instructions (Benchmarks/instructions.sh).
require_valgrind() {
    command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null && return
    log "installing valgrind (apt)"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq valgrind >/dev/null
    command -v valgrind >/dev/null || die "valgrind is still missing after installing it"
}

# Writes the table a script built in "$tmp/results.md" to its results file and prints it.
publish_results() { # results-file
    mkdir -p "$(dirname "$1")"
    cp "$tmp/results.md" "$1"
    echo
    cat "$1"
    echo
    log "written to $1"
}
