#!/usr/bin/env bash
# The nights benchmark (issue 30): what a nightly `run --state` costs against the same night
# run without a state, back to back, on multi-day logs with journeys across midnight and one
# backfill night whose lines span every day; the state's size against the gzip it ingested; and
# all nights against one run over every file.
#
#   Benchmarks/nights.sh                                     15 nights of ~200k events + backfill
#   NIGHTS=5 EVENTS_PER_NIGHT=2000000 Benchmarks/nights.sh   the large-night check
#   NIGHTS=3 EVENTS_PER_NIGHT=20000 Benchmarks/nights.sh     a quick check that it works
#   NIGHTS_COUNTS=1 Benchmarks/nights.sh                     also instructions and cache misses
#
# Environment: NIGHTS, EVENTS_PER_NIGHT, NIGHTS_SEED, BACKFILL_SHARE, NIGHTS_COUNTS, GROVE_BIN,
# BENCH_SCRATCH_PATH, NIGHTS_RESULTS, BENCH_KEEP_OUTPUT. See Benchmarks/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: Benchmarks/nights.sh

Builds grove-report (release), generates NIGHTS days of EVENTS_PER_NIGHT events (once, into
Benchmarks/data/), moves BACKFILL_SHARE of every day's lines into one backfill file run after
the last day, then runs each night on one new state and, right after, the same file without a
state, measuring CPU (user + system), wall time and peak RSS of both. Then one run without state
over every file; the last night's reports must equal its. Writes the table to
Benchmarks/results/nights.md (other sizes: nights-<N>x<EVENTS>.md).

  NIGHTS              number of days (default 15)
  EVENTS_PER_NIGHT    events per day (default 200000)
  NIGHTS_SEED         generator seed (default 9)
  BACKFILL_SHARE      share of each day's lines delivered late, in the backfill night (default 0.05)
  NIGHTS_COUNTS=1     also count, under cachegrind, the instructions and cache misses a line of
                      the last full night and of the backfill night, with and without the state
                      (host-independent; about 3 minutes at 200k events a night)
  GROVE_BIN           use this grove-report binary instead of building one
  BENCH_SCRATCH_PATH  build with --scratch-path DIR instead of .build
  NIGHTS_RESULTS      write the table here instead
  BENCH_KEEP_OUTPUT=1 keep the state and the reports (the path is printed)
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=Benchmarks/tools.sh
. "$here/tools.sh"
only_help_arguments "$@"
cd "$here/.."

nights=${NIGHTS:-15}
per_night=${EVENTS_PER_NIGHT:-200000}
seed=${NIGHTS_SEED:-9}
backfill_share=${BACKFILL_SHARE:-0.05}
counts=${NIGHTS_COUNTS:-0}
require_positive_integers "NIGHTS=$nights" "EVENTS_PER_NIGHT=$per_night"
[[ "$seed" =~ ^[0-9]+$ ]] || die "NIGHTS_SEED must be a non-negative integer, not '$seed'"
[[ "$backfill_share" =~ ^0?\.[0-9]+$ ]] || die "BACKFILL_SHARE must be a fraction such as 0.05, not '$backfill_share'"
if [ "$nights" = 15 ] && [ "$per_night" = 200000 ]; then
    default_results=Benchmarks/results/nights.md
else
    default_results=Benchmarks/results/nights-${nights}x${per_night}.md
fi
results=${NIGHTS_RESULTS:-$default_results}
events=$((nights * per_night))

make_scratch nights

# --- tools -----------------------------------------------------------------------------------
require_gnu_time
find_grove_report
if [ "$counts" = 1 ]; then command -v valgrind >/dev/null || die "NIGHTS_COUNTS=1 needs valgrind (apt-get install valgrind)"; fi

# --- data ------------------------------------------------------------------------------------
data=Benchmarks/data/nights-${nights}x${per_night}-seed${seed}-backfill${backfill_share}
if [ ! -f "$data/.complete" ]; then
    log "generating $nights days of $per_night events into $data"
    rm -rf "$data"
    "$bin" generate --days "$nights" --events "$events" --seed "$seed" --out "$data/generated" >&2
    # A seeded share of each day's lines is delivered late, all together: a backfill night
    # whose lines span every day (run after the last day).
    python3 - "$data" "$backfill_share" "$seed" <<'PY'
import glob, gzip, os, random, sys
data, share, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
late = []
for path in sorted(glob.glob(os.path.join(data, "generated", "events-*.ndjson.gz"))):
    kept = []
    with gzip.open(path, "rb") as day:
        for line in day:
            (late if rng.random() < share else kept).append(line)
    with gzip.open(os.path.join(data, os.path.basename(path)), "wb", compresslevel=6) as out:
        out.writelines(kept)
rng.shuffle(late)
with gzip.open(os.path.join(data, "zz-backfill.ndjson.gz"), "wb", compresslevel=6) as out:
    out.writelines(late)
PY
    rm -rf "$data/generated"
    touch "$data/.complete"
fi
files=("$data"/events-*.ndjson.gz "$data/zz-backfill.ndjson.gz")
[ "${#files[@]}" = $((nights + 1)) ] || die "$data holds ${#files[@]} files, not $((nights + 1)): delete it and rerun"

# Runs a command under GNU time; prints "wall rss_kib cpu".
timed() {
    /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log" >&2; return 1; }
    read -r wall rss user system <"$tmp/time"
    awk -v w="$wall" -v r="$rss" -v u="$user" -v s="$system" 'BEGIN { printf "%s %s %.2f\n", w, r, u + s }'
}

# --- nights ----------------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
state=$tmp/state.sqlite
ingested=0
: >"$tmp/nights.tsv"
for ((night = 1; night <= ${#files[@]}; night++)); do
    file=${files[night - 1]}
    rm -rf "$tmp/with" "$tmp/without"
    # The state before the nights counted under cachegrind, kept for them.
    if [ "$counts" = 1 ] && { [ "$night" = "$nights" ] || [ "$night" = "${#files[@]}" ]; }; then
        for suffix in "" -wal; do
            if [ -f "$state$suffix" ]; then cp "$state$suffix" "$tmp/before-$night.sqlite$suffix"; fi
        done
    fi
    read -r wall rss cpu < <(timed "$bin" run --state "$state" --out "$tmp/with" --max-reject-rate 1 "$file") \
        || die "night $night ($file) failed with the state"
    read -r plain_wall plain_rss plain_cpu < <(timed "$bin" run --out "$tmp/without" --max-reject-rate 1 "$file") \
        || die "night $night ($file) failed without a state"
    ingested=$((ingested + $(stat -c %s "$file")))
    state_bytes=$(( $(stat -c %s "$state") + $( [ -f "$state-wal" ] && stat -c %s "$state-wal" || echo 0) ))
    kind=full
    [ "$file" = "$data/zz-backfill.ndjson.gz" ] && kind=backfill
    printf '%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$night" "$(basename "$file")" "$kind" "$wall" "$rss" "$cpu" \
        "$plain_wall" "$plain_rss" "$plain_cpu" "$state_bytes" "$ingested" >>"$tmp/nights.tsv"
    log "night $night ($kind): state ${cpu}s CPU ${wall}s wall $((rss / 1024)) MiB; without ${plain_cpu}s CPU; state $((state_bytes / 1048576)) MiB for $((ingested / 1048576)) MiB of gzip"
done

log "one run without state over all ${#files[@]} files"
read -r single_wall single_rss single_cpu < <(timed "$bin" run --out "$tmp/single" --max-reject-rate 1 "${files[@]}") \
    || die "the single run failed"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# Instructions and cache misses a line (cachegrind's simulated caches: the same on any host) of
# the last full night and the backfill night, each run again on a copy of the state it met and
# without a state.
: >"$tmp/counts.tsv"
counted() { # label out-dir command...: prints "instructions d1_misses ll_misses lines"
    local out=$2
    shift 2
    valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null "$@" >"$tmp/counts.log" 2>&1 \
        || { cat "$tmp/counts.log" >&2; return 1; }
    python3 - "$tmp/counts.log" "$out/summary.json" <<'PY'
import json, re, sys
log = open(sys.argv[1]).read()
def total(label):
    return int(re.search(label + r":\s+([\d,]+)", log).group(1).replace(",", ""))
print(total(r"I\s+refs"), total(r"D1\s+misses"), total(r"LLd\s+misses"), json.load(open(sys.argv[2]))["lines"])
PY
}
if [ "$counts" = 1 ]; then
    for night in "$nights" "${#files[@]}"; do
        file=${files[night - 1]}
        log "counting night $night under cachegrind, with and without the state"
        counted_state=$tmp/counted.sqlite
        rm -f "$counted_state" "$counted_state-wal"
        for suffix in "" -wal; do
            if [ -f "$tmp/before-$night.sqlite$suffix" ]; then cp "$tmp/before-$night.sqlite$suffix" "$counted_state$suffix"; fi
        done
        rm -rf "$tmp/counted-with" "$tmp/counted-without"
        read -r ir d1 ll _ < <(counted with "$tmp/counted-with" "$bin" run --state "$counted_state" --out "$tmp/counted-with" --max-reject-rate 1 "$file") \
            || die "night $night failed under cachegrind with the state"
        read -r pir pd1 pll plines < <(counted without "$tmp/counted-without" "$bin" run --out "$tmp/counted-without" --max-reject-rate 1 "$file") \
            || die "night $night failed under cachegrind without a state"
        # The night's lines: a state's summary counts every night's.
        printf '%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$night" "$plines" "$ir" "$d1" "$ll" "$pir" "$pd1" "$pll" >>"$tmp/counts.tsv"
    done
fi

mismatches=()
for report in attribution.csv attribution.json exposure.csv exposure.json preview_audit.json report.html; do
    cmp -s "$tmp/with/$report" "$tmp/single/$report" || mismatches+=("$report")
done
if [ "${#mismatches[@]}" = 0 ]; then
    check="the last night's attribution.csv, attribution.json, exposure.csv, exposure.json, preview_audit.json and report.html are byte-identical to the single run's"
else
    check="MISMATCH: ${mismatches[*]} differ between the last night and the single run"
fi

# --- table -----------------------------------------------------------------------------------
mkdir -p "$(dirname "$results")"
python3 - "$tmp/nights.tsv" "$results" "$tmp/counts.tsv" <<PY
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
nights = [dict(n=int(r[0]), file=r[1], kind=r[2], wall=float(r[3]), rss=int(r[4]), cpu=float(r[5]),
               pwall=float(r[6]), prss=int(r[7]), pcpu=float(r[8]), state=int(r[9]), gzip=int(r[10])) for r in rows]
full = [n for n in nights if n["kind"] == "full"]
backfill = [n for n in nights if n["kind"] == "backfill"]
def ratio(a, b): return a / b if b else float("inf")
def verdict(value, target): return f"{value:.2f} (target ≤ {target}: {'met' if value <= target else '**missed**'})"
cpu_ratios = [ratio(n["cpu"], n["pcpu"]) for n in full]
rss_ratios = [ratio(n["rss"], n["prss"]) for n in full]
last = nights[-1]
total = sum(n["wall"] for n in nights)
out = []
out.append("# Nights benchmark\n")
out.append("$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $load_before before and $load_after after; grove-report $(source_label)${build_command:+ built with \`$build_command\`}.\n")
out.append("$nights days of about $per_night events (\`generate --days $nights --events $events --seed $seed\`), "
           "$backfill_share of every day's lines moved into one backfill night run last; each night run on one \`--state\` "
           "and, right after, without it. CPU is user + system (the steadier measure on a shared machine).\n")
out.append("| | measured | target |\n|---|---:|---|")
out.append(f"| state night CPU / the same night without, median of full nights | {verdict(statistics.median(cpu_ratios), 2)} | ≤ 2 |")
if backfill:
    b = backfill[0]
    out.append(f"| backfill night CPU / without ({b['cpu']:.2f} s / {b['pcpu']:.2f} s) | {verdict(ratio(b['cpu'], b['pcpu']), 4)} | ≤ 4 |")
out.append(f"| state file (with \`-wal\`) / gzip ingested ({last['state'] / 1048576:.1f} / {last['gzip'] / 1048576:.1f} MiB) | {verdict(ratio(last['state'], last['gzip']), 1.0)} | ≤ 1.0 |")
out.append(f"| wall of the last full night / the first ({full[-1]['wall']:.2f} / {full[0]['wall']:.2f} s) | {verdict(ratio(full[-1]['wall'], full[0]['wall']), 1.2)} | ≤ 1.2 |")
out.append(f"| peak RSS of a state night / without, median of full nights | {verdict(statistics.median(rss_ratios), 1.5)} | ≤ 1.5 |")
out.append(f"| all nights summed / one run over every file ({total:.2f} / $single_wall s) | {verdict(ratio(total, float('$single_wall')), 3)} | ≤ 3 |")
counted = [line.rstrip("\n").split("\t") for line in open(sys.argv[3])]
if counted:
    out.append("\nHost-independent (cachegrind, simulated caches), a line of the night, with the state / without:\n")
    out.append("| night | lines | instructions | ratio | D1 misses | LL data misses |")
    out.append("|---:|---:|---:|---:|---:|---:|")
    for night, lines, ir, d1, ll, pir, pd1, pll in counted:
        n = int(lines)
        out.append(f"| {night} | {n:,} | {int(ir) / n:,.0f} / {int(pir) / n:,.0f} | {ratio(int(ir), int(pir)):.2f} | "
                   f"{int(d1) / n:.1f} / {int(pd1) / n:.1f} | {int(ll) / n:.2f} / {int(pll) / n:.2f} |")
out.append("\nCheck: $check.\n")
out.append("<details><summary>Every night</summary>\n")
out.append("| night | file | CPU s with / without | ratio | wall s with / without | peak RSS MiB with / without | state MiB | gzip ingested MiB |")
out.append("|---:|---|---:|---:|---:|---:|---:|---:|")
for n in nights:
    out.append(f"| {n['n']} | {n['file']} | {n['cpu']:.2f} / {n['pcpu']:.2f} | {ratio(n['cpu'], n['pcpu']):.2f} | "
               f"{n['wall']:.2f} / {n['pwall']:.2f} | {n['rss'] // 1024} / {n['prss'] // 1024} | {n['state'] / 1048576:.1f} | {n['gzip'] / 1048576:.1f} |")
out.append("\n</details>")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
cat "$results"
log "wrote $results"
[ "${#mismatches[@]}" = 0 ] || exit 1
