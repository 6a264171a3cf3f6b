# Sourced by the benchmark scripts: their messages and argument check (run.sh and
# instructions.sh define their own `log` and `die` first, which these replace only where
# missing), their scratch directory, the checks of their settings, the tools they need,
# installed once, and the grove-report binary they measure.

declare -F log >/dev/null || log() { printf '==> %s\n' "$*" >&2; }
declare -F die >/dev/null || die() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

# A script that takes settings from the environment only: -h/--help prints its `usage`,
# anything else is a usage error.
only_help_arguments() {
    local arg
    for arg in "$@"; do
        case "$arg" in
            -h | --help) usage; exit 0 ;;
            *) echo "$(basename "$0"): unknown argument '$arg' (try --help)" >&2; exit 2 ;;
        esac
    done
}

# Dies unless each NAME=VALUE argument holds a positive integer.
require_positive_integers() {
    local pair
    for pair in "$@"; do
        [[ "${pair#*=}" =~ ^[1-9][0-9]*$ ]] || die "${pair%%=*} must be a positive integer, not '${pair#*=}'"
    done
}

# Sets `tmp` to a new scratch directory, removed at exit unless BENCH_KEEP_OUTPUT=1 (then its
# path is printed).
make_scratch() { # name
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/grove-$1.XXXXXX")
    if [ "${BENCH_KEEP_OUTPUT:-0}" = 1 ]; then
        trap 'echo "outputs kept in $tmp" >&2' EXIT
    else
        trap 'rm -rf "$tmp"' EXIT
    fi
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root to run: $*"
    fi
}

# Installs a Debian package with apt unless `check` (a command line) already succeeds, and
# checks again after.
install_with_apt() { # package check...
    local package=$1
    shift
    "$@" >/dev/null 2>&1 && return
    log "installing $package (apt)"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$package" >/dev/null
    "$@" >/dev/null 2>&1 || die "'$*' still fails after installing '$package'"
}

# GNU time measures wall time and peak RSS of each run.
require_gnu_time() {
    install_with_apt time test -x /usr/bin/time
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
    local extra=()
    if [ -n "${BENCH_SCRATCH_PATH:-}" ]; then extra=(--scratch-path "$BENCH_SCRATCH_PATH"); fi
    build_command="swift build -c release${extra[*]:+ ${extra[*]}}"
    log "building grove-report ($build_command)"
    .ci/install-deps
    bin=$(release_build . "$tmp/build.log" "${extra[@]}")
    log "grove-report: $bin"
}

# Builds the package in `dir` with `swift build -c release` and the extra arguments, logging to
# `log` (whose tail is shown when the build fails); prints the path of its grove-report.
release_build() { # dir log [swift build argument...]
    local dir=$1 log_file=$2
    shift 2
    if ! (cd "$dir" && swift build -c release "$@") >"$log_file" 2>&1; then
        tail -n 40 "$log_file" >&2
        die "swift build -c release $* failed in $dir"
    fi
    echo "$(cd "$dir" && swift build -c release "$@" --show-bin-path)/grove-report"
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
    install_with_apt valgrind command -v callgrind_annotate
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
