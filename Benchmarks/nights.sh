#!/usr/bin/env bash
# The nights benchmark (issue 9): NIGHTS days of generated logs (`generate --days`, journeys
# that cross midnight), run night by night on one --state, against one plain run over all days.
#
#   Benchmarks/nights.sh                               30 nights of ~300k events (the target)
#   NIGHTS=5 EVENTS_PER_NIGHT=50000 Benchmarks/nights.sh   a quick check that it works
#
# Environment: NIGHTS, EVENTS_PER_NIGHT, NIGHTS_SEED, GROVE_BIN, BENCH_SCRATCH_PATH,
# NIGHTS_RESULTS, BENCH_KEEP_OUTPUT. See Benchmarks/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: Benchmarks/nights.sh

Builds grove-report (release), generates NIGHTS days of EVENTS_PER_NIGHT events each into
Benchmarks/data/ (once), runs them night by night on one new state, measuring each night's wall
time and peak RSS, then one run without state over all the files; checks that the last night's
reports equal the single run's and writes the table to Benchmarks/results/nights.md (other sizes:
Benchmarks/results/nights-small.md).

  NIGHTS              number of nights (default 30)
  EVENTS_PER_NIGHT    events per night (default 300000)
  NIGHTS_SEED         generator seed (default 9)
  GROVE_BIN           use this grove-report binary instead of building one
  BENCH_SCRATCH_PATH  build with --scratch-path DIR instead of .build
  NIGHTS_RESULTS      write the table here instead
  BENCH_KEEP_OUTPUT=1 keep the state and the reports (the path is printed)
EOF
}

for arg in "$@"; do
    case "$arg" in
        -h | --help) usage; exit 0 ;;
        *) echo "nights.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'nights.sh: %s\n' "$*" >&2; exit 1; }

nights=${NIGHTS:-30}
per_night=${EVENTS_PER_NIGHT:-300000}
seed=${NIGHTS_SEED:-9}
for pair in "NIGHTS=$nights" "EVENTS_PER_NIGHT=$per_night"; do
    value=${pair#*=}
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "${pair%%=*} must be a positive integer, not '$value'"
done
[[ "$seed" =~ ^[0-9]+$ ]] || die "NIGHTS_SEED must be a non-negative integer, not '$seed'"
if [ "$nights" = 30 ] && [ "$per_night" = 300000 ]; then
    default_results=Benchmarks/results/nights.md
else
    default_results=Benchmarks/results/nights-small.md
fi
results=${NIGHTS_RESULTS:-$default_results}
events=$((nights * per_night))

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grove-nights.XXXXXX")
if [ "${BENCH_KEEP_OUTPUT:-0}" = 1 ]; then
    trap 'echo "nights.sh: state and reports kept in $tmp" >&2' EXIT
else
    trap 'rm -rf "$tmp"' EXIT
fi

# --- tools -----------------------------------------------------------------------------------
# shellcheck source=Benchmarks/tools.sh
. "$here/tools.sh"
require_gnu_time

find_grove_report

# --- data ------------------------------------------------------------------------------------
data=Benchmarks/data/nights-${nights}x${per_night}-seed${seed}
if [ ! -f "$data/.complete" ]; then
    log "generating $nights days of $per_night events into $data"
    rm -rf "$data"
    "$bin" generate --days "$nights" --events "$events" --seed "$seed" --out "$data" >&2
    touch "$data/.complete"
fi
files=("$data"/events-*.ndjson.gz)
[ "${#files[@]}" = "$nights" ] || die "$data holds ${#files[@]} files, not $nights: delete it and rerun"
data_mib=$(du -smL "$data" | cut -f1)

# --- nights ----------------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
state=$tmp/state.sqlite
: >"$tmp/nights.tsv"
for ((night = 1; night <= nights; night++)); do
    out=$tmp/night
    rm -rf "$out"
    file=${files[night - 1]}
    if ! /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" \
        "$bin" run --state "$state" --out "$out" --max-reject-rate 1 "$file" >"$tmp/run.log" 2>&1; then
        cat "$tmp/run.log" >&2
        die "night $night ($file) failed"
    fi
    read -r wall rss_kib user_s system_s <"$tmp/time"
    state_bytes=$(stat -c %s "$state")
    cpu=$(awk -v u="$user_s" -v s="$system_s" 'BEGIN { printf "%.2f", u + s }')
    printf '%d\t%s\t%s\t%s\t%s\t%s\n' "$night" "$(basename "$file")" "$wall" "$rss_kib" "$state_bytes" "$cpu" >>"$tmp/nights.tsv"
    log "night $night/$nights: ${wall}s, $((rss_kib / 1024)) MiB peak, state $((state_bytes / 1048576)) MiB"
done
wal_bytes=0
[ -f "$state-wal" ] && wal_bytes=$(stat -c %s "$state-wal")

log "one run without state over all $nights files"
if ! /usr/bin/time -f "%e %M" -o "$tmp/time" \
    "$bin" run --out "$tmp/single" --max-reject-rate 1 "${files[@]}" >"$tmp/run.log" 2>&1; then
    cat "$tmp/run.log" >&2
    die "the single run failed"
fi
read -r single_wall single_rss_kib <"$tmp/time"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# What cron jobs without a state would report: each night alone, added up (issue 9's table).
log "each night alone, without state (not timed)"
# attributed clicks, orphan binds, units, converted units of one run's reports
figures() {
    python3 - "$1" <<'PY'
import csv, json, sys
out = sys.argv[1]
totals = json.load(open(out + "/attribution.json"))["totals"]
rows = list(csv.DictReader(open(out + "/exposure.csv")))
print(totals["attributed"], totals["orphan_binds"], sum(int(r["units"]) for r in rows),
      sum(int(r["converted_units"]) for r in rows))
PY
}
alone=(0 0 0 0)
for ((night = 1; night <= nights; night++)); do
    rm -rf "$tmp/alone"
    "$bin" run --out "$tmp/alone" --max-reject-rate 1 "${files[night - 1]}" >"$tmp/run.log" 2>&1 \
        || { cat "$tmp/run.log" >&2; die "night $night alone failed"; }
    read -r -a tonight <<<"$(figures "$tmp/alone")"
    for i in 0 1 2 3; do alone[i]=$((alone[i] + tonight[i])); done
done
read -r -a single_figures <<<"$(figures "$tmp/single")"

# --- check -----------------------------------------------------------------------------------
mismatches=()
for report in attribution.csv attribution.json exposure.csv exposure.json preview_audit.json; do
    cmp -s "$tmp/night/$report" "$tmp/single/$report" || mismatches+=("$report")
done
if [ "${#mismatches[@]}" = 0 ]; then
    check="the last night's attribution.csv, attribution.json, exposure.csv, exposure.json and preview_audit.json are byte-identical to the single run's"
else
    check="MISMATCH: ${mismatches[*]} differ between the last night and the single run"
fi

# --- table -----------------------------------------------------------------------------------
mkdir -p "$(dirname "$results")"
awk -F'\t' -v nights="$nights" -v per_night="$per_night" -v seed="$seed" -v data_mib="$data_mib" \
    -v single_wall="$single_wall" -v single_rss="$single_rss_kib" -v wal="$wal_bytes" \
    -v load_before="$load_before" -v load_after="$load_after" -v cores="$(nproc)" \
    -v when="$(date -u '+%Y-%m-%d %H:%M UTC')" -v check="$check" \
    -v single_figures="${single_figures[*]}" -v alone_figures="${alone[*]}" '
    function mib(kib) { return sprintf("%.0f", kib / 1024) }
    function verdict(ok) { return ok ? "met" : "**missed**" }
    { night[$1] = $2; wall[$1] = $3; rss[$1] = $4; size[$1] = $5; cpu[$1] = $6; total += $3 }
    END {
        w1 = wall[1]; wn = wall[nights]; r1 = rss[1]; rn = rss[nights]
        wratio = w1 > 0 ? wn / w1 : 0; rratio = r1 > 0 ? rn / r1 : 0
        c1 = cpu[1]; cn = cpu[nights]; cratio = c1 > 0 ? cn / c1 : 0
        printf "# Nights benchmark\n\n"
        printf "%s, %s cores, load average %s before and %s after (the machine is shared: other work shows in the figures).\n\n", when, cores, load_before, load_after
        printf "%d nights of about %d events (`generate --days %d --events %d --seed %d`, %s MiB of gzip), run night by night on one `--state`, release build.\n\n", nights, per_night, nights, nights * per_night, seed, data_mib
        printf "| | wall s | peak RSS MiB | CPU s (user + system) |\n|---|---:|---:|---:|\n"
        printf "| night 1 (%s) | %.2f | %s | %.2f |\n", night[1], w1, mib(r1), c1
        printf "| night %d (%s) | %.2f | %s | %.2f |\n", nights, night[nights], wn, mib(rn), cn
        printf "| night %d / night 1 | %.2f (target ≤ 2: %s) | %.2f (target ≤ 1.5: %s) | %.2f |\n", nights, wratio, verdict(wratio <= 2), rratio, verdict(rratio <= 1.5), cratio
        printf "| all %d nights, summed | %.2f | | |\n", nights, total
        printf "| one run without state over all %d files | %.2f | %s | |\n\n", nights, single_wall, mib(single_rss)
        printf "CPU time is given beside wall time because the machine may be shared: it is the steadier measure of the work a night does.\n\n"
        printf "State after night %d: %.1f MiB (`-wal` beside it: %.1f MiB).\n\n", nights, size[nights] / 1048576, wal / 1048576
        printf "Check: %s.\n\n", check
        split(single_figures, s, " "); split(alone_figures, a, " ")
        printf "Journeys cross midnight: the nights run alone without a state and added up, against one run over all days (or the last night on the state):\n\n"
        printf "| | one run over all days | sum of nights run alone |\n|---|---:|---:|\n"
        printf "| attributed clicks | %d | %d |\n| orphan binds | %d | %d |\n| units | %d | %d |\n| converted units | %d | %d |\n\n", s[1], a[1], s[2], a[2], s[3], a[3], s[4], a[4]
        printf "<details><summary>Every night</summary>\n\n| night | file | wall s | CPU s | peak RSS MiB | state MiB |\n|---:|---|---:|---:|---:|---:|\n"
        for (n = 1; n <= nights; n++) printf "| %d | %s | %.2f | %.2f | %s | %.1f |\n", n, night[n], wall[n], cpu[n], mib(rss[n]), size[n] / 1048576
        printf "\n</details>\n"
    }' "$tmp/nights.tsv" >"$results"
cat "$results"
log "wrote $results"
[ "${#mismatches[@]}" = 0 ] || exit 1
