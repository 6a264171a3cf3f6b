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
# $BENCH_SCRATCH_PATH when set), logged in "$tmp/build.log".
find_grove_report() {
    if [ -n "${GROVE_BIN:-}" ]; then
        bin=$GROVE_BIN
        [ -x "$bin" ] || die "GROVE_BIN=$bin is not an executable file"
        log "grove-report: $bin (GROVE_BIN)"
        return
    fi
    local build=(swift build -c release)
    if [ -n "${BENCH_SCRATCH_PATH:-}" ]; then build+=(--scratch-path "$BENCH_SCRATCH_PATH"); fi
    log "building grove-report (${build[*]})"
    .ci/install-deps
    if ! "${build[@]}" >"$tmp/build.log" 2>&1; then
        tail -n 40 "$tmp/build.log" >&2
        die "${build[*]} failed"
    fi
    bin="$("${build[@]}" --show-bin-path)/grove-report"
    log "grove-report: $bin"
}
