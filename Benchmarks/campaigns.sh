#!/usr/bin/env bash
# The campaigns benchmark (issue 31, row 7): logs whose campaign names are all distinct, as anyone
# who can craft a link or an SDK event can write them. One run over CAMPAIGNS clicks with distinct
# `utm_campaign` and CAMPAIGNS decisions with distinct `campaignId`, measured: peak RSS, wall time,
# output bytes, and the time headless Chromium takes to open report.html; then a state planted
# with STATE_CAMPAIGNS campaigns and a one-line night on it.
#
#   Benchmarks/campaigns.sh                               500,000 campaigns (the target), ~1 minute
#   CAMPAIGNS=50000 STATE_CAMPAIGNS=10000 Benchmarks/campaigns.sh   a quick check
#
# Environment: CAMPAIGNS, STATE_CAMPAIGNS, GROVE_BIN, BENCH_SCRATCH_PATH, CAMPAIGNS_RESULTS,
# BENCH_KEEP_OUTPUT. See Benchmarks/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: Benchmarks/campaigns.sh

Builds grove-report (release), generates CAMPAIGNS link clicks with distinct utm_campaign and
CAMPAIGNS decisions with distinct campaignId (one in 50 a preview decision) into Benchmarks/data/
(once), runs `run` over them with the default --max-campaigns, and measures peak RSS, wall time,
the bytes of every output and the seconds headless chromium takes to load report.html (--dump-dom).
Then plants STATE_CAMPAIGNS campaigns on a new --state and measures a one-line night on it.
Checks the targets of issue 31 (peak RSS under 1 GiB, outputs under 50 MB, the page open in under
10 s) and writes the table to Benchmarks/results/campaigns.md (other sizes:
Benchmarks/results/campaigns-small.md). Exits 1 when a target is missed.

  CAMPAIGNS           distinct campaigns of each kind (default 500000)
  STATE_CAMPAIGNS     campaigns planted on the state (default 100000)
  GROVE_BIN           use this grove-report binary instead of building one
  BENCH_SCRATCH_PATH  build with --scratch-path DIR instead of .build
  CAMPAIGNS_RESULTS   write the table here instead
  BENCH_KEEP_OUTPUT=1 keep the reports and the state (the path is printed)
EOF
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=Benchmarks/tools.sh
. "$here/tools.sh"
only_help_arguments "$@"
cd "$here/.."

campaigns=${CAMPAIGNS:-500000}
planted=${STATE_CAMPAIGNS:-100000}
require_positive_integers "CAMPAIGNS=$campaigns" "STATE_CAMPAIGNS=$planted"
if [ "$campaigns" = 500000 ] && [ "$planted" = 100000 ]; then
    default_results=Benchmarks/results/campaigns.md
else
    default_results=Benchmarks/results/campaigns-small.md
fi
results=${CAMPAIGNS_RESULTS:-$default_results}

make_scratch campaigns

# --- tools -----------------------------------------------------------------------------------
require_gnu_time
find_grove_report
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || log "chromium is not on PATH (.ci/install-deps installs it): the page is not opened"

# --- data ------------------------------------------------------------------------------------
# Lines as a crafted client would send them: every click and every decision names a campaign of its own.
generate() { # clicks decisions file
    python3 - "$1" "$2" "$3" <<'PY'
import gzip, sys
clicks, decisions, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with gzip.open(path, "wt", compresslevel=6) as out:
    for i in range(clicks):
        route = "store" if i % 3 == 0 else "app"
        out.write('{"type":"link_click","ts":"2026-03-02T00:%02d:%02dZ","clickId":"k%d","appKey":"grv8k2Qa",'
                  '"slug":"s","route":"%s","utm_campaign":"utm-%07d"}\n' % (i // 60 % 60, i % 60, i, route, i))
    for i in range(decisions):
        out.write('{"type":"decision","ts":"2026-03-02T01:%02d:%02dZ","installId":"i%d","campaignId":"exp-%07d",'
                  '"variantId":"v%d","isPreview":%s,"control":%s}\n'
                  % (i // 60 % 60, i % 60, i, i, i % 2, "true" if i % 50 == 0 else "false",
                     "true" if i % 2 == 0 else "false"))
PY
}
data=Benchmarks/data/campaigns-$campaigns
if [ ! -f "$data/.complete" ]; then
    log "generating $campaigns clicks and $campaigns decisions, each of its own campaign, into $data"
    rm -rf "$data"
    mkdir -p "$data"
    generate "$campaigns" "$campaigns" "$data/campaigns.ndjson.gz"
    touch "$data/.complete"
fi
plant=Benchmarks/data/campaigns-planted-$planted
if [ ! -f "$plant/.complete" ]; then
    rm -rf "$plant"
    mkdir -p "$plant"
    generate "$planted" 0 "$plant/planted.ndjson.gz"
    printf '%s\n' '{"type":"link_click","ts":"2026-03-03T00:00:00Z","clickId":"night","appKey":"a","slug":"s","route":"app","utm_campaign":"real"}' \
        >"$plant/night.ndjson"
    touch "$plant/.complete"
fi
input=$data/campaigns.ndjson.gz
input_mib=$(awk -v b="$(stat -c %s "$input")" 'BEGIN { printf "%.1f", b / 1048576 }')

# --- the run ---------------------------------------------------------------------------------
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
measure() { # label, then the command
    local label=$1
    shift
    if ! /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/run.log" 2>&1; then
        cat "$tmp/run.log" >&2
        die "$label failed: $*"
    fi
    read -r wall rss_kib <"$tmp/time"
    log "$label: ${wall}s, $((rss_kib / 1024)) MiB peak"
}
measure "run over $campaigns + $campaigns campaigns" "$bin" run "$input" --out "$tmp/out"
run_wall=$wall
run_rss=$rss_kib
: >"$tmp/sizes.tsv"
total_bytes=0
for file in "$tmp"/out/*; do
    bytes=$(stat -c %s "$file")
    total_bytes=$((total_bytes + bytes))
    printf '%s\t%s\n' "$(basename "$file")" "$bytes" >>"$tmp/sizes.tsv"
done
folded=$(python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["folded_campaigns"]; print(f["attribution"], f["exposure"])' "$tmp/out/summary.json")

page_seconds=
if [ -n "$chromium" ]; then
    log "opening report.html in headless chromium"
    start=$(date +%s.%N)
    if ! timeout 300 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
        --no-default-browser-check --disable-extensions --user-data-dir="$tmp/profile" \
        --dump-dom "file://$tmp/out/report.html" >"$tmp/dom.html" 2>"$tmp/chromium.log"; then
        tail -n 5 "$tmp/chromium.log" >&2
        die "chromium could not open report.html"
    fi
    page_seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    grep -q '</html>' "$tmp/dom.html" || die "chromium's DOM of report.html is not a whole page"
    log "report.html opened in ${page_seconds}s"
fi

# --- a state planted with campaigns, then a night of one line ---------------------------------
measure "planting $planted campaigns on a state" "$bin" run --state "$tmp/state.db" --out "$tmp/plant" "$plant/planted.ndjson.gz"
plant_wall=$wall
plant_rss=$rss_kib
measure "a one-line night on it" "$bin" run --state "$tmp/state.db" --out "$tmp/night" "$plant/night.ndjson"
night_wall=$wall
night_rss=$rss_kib
night_bytes=$(du -sb "$tmp/night" | cut -f1)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- table -----------------------------------------------------------------------------------
mkdir -p "$(dirname "$results")"
awk -F'\t' -v campaigns="$campaigns" -v planted="$planted" -v input_mib="$input_mib" \
    -v run_wall="$run_wall" -v run_rss="$run_rss" -v total="$total_bytes" -v page="$page_seconds" \
    -v folded="$folded" -v plant_wall="$plant_wall" -v plant_rss="$plant_rss" -v night_wall="$night_wall" \
    -v night_rss="$night_rss" -v night_bytes="$night_bytes" -v load_before="$load_before" -v load_after="$load_after" \
    -v cores="$(nproc)" -v when="$(date -u '+%Y-%m-%d %H:%M UTC')" '
    function mib(kib) { return sprintf("%.0f", kib / 1024) }
    function mb(bytes) { return sprintf("%.1f", bytes / 1e6) }
    function verdict(ok) { return ok ? "met" : "**missed**" }
    { name[NR] = $1; size[NR] = $2 }
    END {
        split(folded, f, " ")
        printf "# Campaigns benchmark\n\n"
        printf "%s, %s cores, load average %s before and %s after (the machine is shared: other work shows in the figures).\n\n", when, cores, load_before, load_after
        printf "%d link clicks with distinct `utm_campaign` and %d decisions with distinct `campaignId` (one in 50 preview), %s MiB of gzip, one `run` with the default `--max-campaigns` (10000), release build.\n\n", campaigns, campaigns, input_mib
        printf "| | figure | target (issue 31) |\n|---|---:|---|\n"
        printf "| wall time | %.2f s | |\n", run_wall
        printf "| peak RSS | %s MiB | under 1 GiB: %s |\n", mib(run_rss), verdict(run_rss < 1048576)
        printf "| outputs | %s MB | under 50 MB: %s |\n", mb(total), verdict(total < 50e6)
        if (page != "") printf "| report.html in headless chromium (`--dump-dom`) | %.1f s | under 10 s: %s |\n", page, verdict(page < 10)
        else printf "| report.html in headless chromium | not measured (no chromium) | under 10 s |\n"
        printf "| `folded_campaigns` | attribution %d, exposure %d | |\n\n", f[1], f[2]
        printf "| output | bytes |\n|---|---:|\n"
        for (i = 1; i <= NR; i++) printf "| %s | %d |\n", name[i], size[i]
        printf "\nA state planted with %d campaigns (one click each), then a night of one line on it:\n\n", planted
        printf "| | wall s | peak RSS MiB |\n|---|---:|---:|\n"
        printf "| planting run | %.2f | %s |\n| one-line night | %.2f | %s |\n\n", plant_wall, mib(plant_rss), night_wall, mib(night_rss)
        printf "The night wrote %s MB of reports.\n", mb(night_bytes)
    }' "$tmp/sizes.tsv" >"$results"
cat "$results"
log "wrote $results"
ok=$(awk -v r="$run_rss" -v t="$total_bytes" -v p="${page_seconds:-0}" 'BEGIN { print (r < 1048576 && t < 50e6 && p < 10) ? 1 : 0 }')
[ "$ok" = 1 ] || die "a target of issue 31 was missed (see $results)"
