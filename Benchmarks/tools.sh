# Sourced by the benchmark scripts (after they define `log` and `die`): what they need from the
# system, installed once.

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
