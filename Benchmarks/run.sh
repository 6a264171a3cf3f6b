#!/usr/bin/env bash
# The grove-report benchmark (issues 5, 11 and 34): grove-report (zlib and ISA-L inflate, 2 and 1
# jobs) against the gzip decompression limit and DuckDB, on production-shaped data sets (large and
# small), the friendly generated set and a high-cardinality set (every click, open, install and
# order id distinct), with checks that DuckDB's counts agree and that both inflate backends and
# both job counts write the same reports.
#
#   Benchmarks/run.sh            full run: production 10M and 1M, friendly 10M, high-cardinality 10M, 3 runs
#   Benchmarks/run.sh --quick    smoke test: 200k, 50k, 50k and 50k events, 1 run
#
# Environment: BENCH_EVENTS_LARGE, BENCH_EVENTS_SMALL, BENCH_EVENTS_FRIENDLY, BENCH_EVENTS_HIGH,
# BENCH_RUNS, GROVE_BIN, BENCH_SCRATCH_PATH, BENCH_RESULTS, BENCH_KEEP_OUTPUT. See Benchmarks/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: Benchmarks/run.sh [--quick]

Builds grove-report (release), generates four data sets into Benchmarks/data/ (once): a large
and a small production-shaped one (generate --shape production), a friendly one (the default
shape) and a high-cardinality one (generate --shape high-cardinality: production lines, every
click, open, install and order id new), then for each set measures wall time and peak RSS
(median of BENCH_RUNS runs; each run measures every set in turn, the tools interleaved within
each set) of
  a. gzip -dc of the files, 2 in parallel (the decompression limit on 2 cores),
  b. grove-report run FILES --max-reject-rate 1, with zlib and with --inflate isal, each with the
     default jobs and with --jobs 1,
  c. DuckDB computing the same attribution and exposure counts (Benchmarks/duckdb_reports.py),
checks that DuckDB's counts agree with grove-report's reports and that every grove-report
variant wrote the same reports, prints the table and writes it to Benchmarks/results/latest.md
(--quick: Benchmarks/results/quick.md). The ISA-L rows are left out when libisal.so.2 is missing.

  --quick               200k / 50k / 50k / 50k events, 1 run (env variables still win)
  BENCH_EVENTS_LARGE    events of the large production-shaped set (default 10000000, seed 10)
  BENCH_EVENTS_SMALL    events of the small production-shaped set (default 1000000, seed 1)
  BENCH_EVENTS_FRIENDLY events of the friendly set (default 10000000, seed 10)
  BENCH_EVENTS_HIGH     events of the high-cardinality set (default 10000000, seed 10)
  BENCH_RUNS            runs per tool and set (default 3)
  GROVE_BIN             use this grove-report binary instead of building one
  BENCH_SCRATCH_PATH    build with --scratch-path DIR instead of .build
  BENCH_RESULTS         write the table here instead
  BENCH_KEEP_OUTPUT=1   keep the reports of the last runs (the path is printed)
EOF
}

quick=0
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

log() { printf '==> %s\n' "$*"; }
die() { printf 'run.sh: %s\n' "$*" >&2; exit 1; }

if [ "$quick" = 1 ]; then
    default_large=200000 default_small=50000 default_friendly=50000 default_high=50000 default_runs=1 mode=quick
else
    default_large=10000000 default_small=1000000 default_friendly=10000000 default_high=10000000 default_runs=3 mode=full
fi
events_large=${BENCH_EVENTS_LARGE:-$default_large}
events_small=${BENCH_EVENTS_SMALL:-$default_small}
events_friendly=${BENCH_EVENTS_FRIENDLY:-$default_friendly}
events_high=${BENCH_EVENTS_HIGH:-$default_high}
runs=${BENCH_RUNS:-$default_runs}
for pair in "BENCH_EVENTS_LARGE=$events_large" "BENCH_EVENTS_SMALL=$events_small" \
    "BENCH_EVENTS_FRIENDLY=$events_friendly" "BENCH_EVENTS_HIGH=$events_high" "BENCH_RUNS=$runs"; do
    value=${pair#*=}
    [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "${pair%%=*} must be a positive integer, not '$value'"
done
results=${BENCH_RESULTS:-Benchmarks/results/$([ "$quick" = 1 ] && echo quick || echo latest).md}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grove-bench.XXXXXX")
if [ "${BENCH_KEEP_OUTPUT:-0}" = 1 ]; then
    trap 'echo "run.sh: outputs kept in $tmp"' EXIT
else
    trap 'rm -rf "$tmp"' EXIT
fi

# --- tools -----------------------------------------------------------------------------------
# shellcheck source=Benchmarks/tools.sh
. "$here/tools.sh"
require_gnu_time

venv=Benchmarks/.venv
py=$venv/bin/python
duckdb_wanted=$(sed -n 's/^duckdb==//p' Benchmarks/requirements.txt)
if [ ! -x "$py" ]; then
    command -v python3 >/dev/null || die "python3 is needed for the DuckDB comparison"
    log "creating $venv"
    if ! python3 -m venv "$venv" 2>"$tmp/venv.log"; then
        log "python3 -m venv failed; installing python3-venv (apt)"
        rm -rf "$venv"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv" || die "cannot create $venv (see python3 -m venv)"
    fi
fi
if ! "$py" -c "import duckdb, sys; sys.exit(duckdb.__version__ != '$duckdb_wanted')" 2>/dev/null; then
    log "installing duckdb==$duckdb_wanted into $venv (pip)"
    "$py" -m pip install -q --disable-pip-version-check -r Benchmarks/requirements.txt \
        || die "pip could not install Benchmarks/requirements.txt"
fi
duckdb_version=$("$py" -c 'import duckdb; print(duckdb.__version__)')

find_grove_report

# --- data ------------------------------------------------------------------------------------
label_of() { # 10000000 -> 10M, 200000 -> 200k
    local n=$1
    if [ $((n % 1000000)) -eq 0 ]; then echo "$((n / 1000000))M"
    elif [ $((n % 1000)) -eq 0 ]; then echo "$((n / 1000))k"
    else echo "$n"; fi
}

declare -A set_dir set_label set_shape
dataset() { # set shape events seed: generates Benchmarks/data/SHAPE-events-E-seedS-files8 unless it is there
    local set=$1 shape=$2 events=$3 seed=$4
    local dir="Benchmarks/data/$shape-events-$events-seed$seed-files8"
    if [ ! -f "$dir/.complete" ]; then
        rm -rf "$dir"
        log "generating $dir (generate --shape $shape --events $events --files 8 --seed $seed)"
        local started=$SECONDS
        "$bin" generate --out "$dir" --shape "$shape" --events "$events" --files 8 --seed "$seed" >/dev/null \
            || die "grove-report generate failed for $dir"
        touch "$dir/.complete"
        log "  generated in $((SECONDS - started)) s"
    else
        log "data: $dir (already generated)"
    fi
    set_dir[$set]=$dir
    set_shape[$set]=$shape
    set_label[$set]="$(label_of "$events") $shape"
}

# The first two sets are the large and the small one of the same shape (bench_table.py's ratios).
names=(large small friendly high)
dataset large production "$events_large" 10
dataset small production "$events_small" 1
dataset friendly friendly "$events_friendly" 10
dataset high high-cardinality "$events_high" 10
if [ "$events_large" = "$events_small" ]; then set_label[small]="${set_label[small]} (seed 1)"; fi

# ISA-L is optional: without libisal.so.2, `--inflate isal` is a usage error and its rows are skipped.
isal=1
if ! "$bin" run SampleData --out "$tmp/isal-probe" --inflate isal --max-reject-rate 1 >/dev/null 2>"$tmp/isal.log"; then
    isal=0
    log "no ISA-L ($(head -n 1 "$tmp/isal.log")): measuring zlib only"
fi

# --- measurements ----------------------------------------------------------------------------
measurements=$tmp/measurements.tsv
sets_tsv=$tmp/sets.tsv
checks=$tmp/checks.txt
: >"$measurements"
: >"$sets_tsv"
: >"$checks"

measure() { # set tool run command...
    local set=$1 tool=$2 run=$3
    shift 3
    if ! /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" </dev/null >"$tmp/stdout.log" 2>"$tmp/stderr.log"; then
        tail -n 20 "$tmp/stderr.log" >&2
        die "$tool failed on ${set_label[$set]} (run $run): $*"
    fi
    local wall rss
    read -r wall rss <"$tmp/time"
    printf '%s\t%s\t%s\t%s\t%s\n' "$set" "$tool" "$run" "$wall" "$rss" >>"$measurements"
    log "  $tool run $run/$runs: ${wall} s, $((rss / 1024)) MiB"
}

gzip_limit() { # the decompression limit on 2 cores: every file through gzip -dc, 2 at a time
    printf '%s\n' "$@" | xargs -d '\n' -P2 -n1 gzip -dc >/dev/null
}
export -f gzip_limit

variants_of() { # the grove-report variants measured on every set, as "tool:options"
    echo "grove:--inflate zlib"
    if [ "$isal" = 1 ]; then echo "grove-isal:--inflate isal"; fi
    echo "grove-j1:--inflate zlib --jobs 1"
    if [ "$isal" = 1 ]; then echo "grove-isal-j1:--inflate isal --jobs 1"; fi
}

for set in "${names[@]}"; do
    files=("${set_dir[$set]}"/*.gz)
    [ -e "${files[0]}" ] || die "no .gz files in ${set_dir[$set]} (delete it to regenerate)"
    mkdir -p "$tmp/$set"
    log "${set_label[$set]}: ${#files[@]} files in ${set_dir[$set]}, $runs run(s) per tool"
done
load_start=$(cut -d ' ' -f 1-3 /proc/loadavg)
# Run by run, every set in turn: a ratio between two sets (10M / 1M) compares runs of the same
# minutes, as a ratio between two tools does, not the load of this shared machine at two times.
for ((run = 1; run <= runs; run++)); do
    for set in "${names[@]}"; do
        files=("${set_dir[$set]}"/*.gz)
        out=$tmp/$set
        log "run $run/$runs, ${set_label[$set]}"
        measure "$set" gzip "$run" bash -c 'gzip_limit "$@"' _ "${files[@]}"
        while IFS= read -r variant; do
            tool=${variant%%:*}
            read -r -a extra <<<"${variant#*:}"
            measure "$set" "$tool" "$run" "$bin" run "${files[@]}" --out "$out/$tool" --max-reject-rate 1 "${extra[@]}"
        done < <(variants_of "$set")
        measure "$set" duckdb "$run" "$py" Benchmarks/duckdb_reports.py --out "$out/duckdb" "${files[@]}"
    done
done

agree=1
for set in "${names[@]}"; do
    files=("${set_dir[$set]}"/*.gz)
    out=$tmp/$set
    while IFS= read -r variant; do
        tool=${variant%%:*}
        [ "$tool" = grove ] && continue
        if same_reports "$out/grove" "$out/$tool"; then
            echo "check ${set_label[$set]}: $tool wrote the same reports as grove (zlib, --jobs $(nproc))" >>"$checks"
        else
            echo "check ${set_label[$set]}: $tool wrote DIFFERENT reports from grove (zlib)" >>"$checks"
            agree=0
        fi
    done < <(variants_of "$set")
    compressed=$(stat -c %s "${files[@]}" | awk '{ s += $1 } END { print s }')
    printf '%s\t%s\t%s\t%s\n' "$set" "${set_label[$set]}" "$out/grove/summary.json" "$compressed" >>"$sets_tsv"
    if ! "$py" Benchmarks/compare_reports.py "$out/grove" "$out/duckdb" --label "${set_label[$set]}" >>"$checks"; then
        agree=0
    fi
done

# --- report ----------------------------------------------------------------------------------
commit=$(source_label)
memory=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
{
    echo "# grove-report benchmark"
    echo
    echo "\`Benchmarks/run.sh$([ "$quick" = 1 ] && echo " --quick")\` ($mode; BENCH_EVENTS_LARGE=$events_large," \
        "BENCH_EVENTS_SMALL=$events_small, BENCH_EVENTS_FRIENDLY=$events_friendly, BENCH_EVENTS_HIGH=$events_high," \
        "BENCH_RUNS=$runs) on $(date -u '+%Y-%m-%d %H:%M UTC'), load average at the start $load_start, at the end" \
        "$(cut -d ' ' -f 1-3 /proc/loadavg). \"production\" sets: \`generate --shape production\`" \
        "(SDK metadata on Grona lines, production cardinalities); \"friendly\": the default shape;" \
        "\"high-cardinality\": \`generate --shape high-cardinality\` (production lines, every click, open," \
        "install and order id new)."
    echo
    if [ -n "${GROVE_BIN:-}" ]; then grove="grove-report GROVE_BIN=$GROVE_BIN (repository at $commit)"
    else grove="grove-report $commit ($build_command)"; fi
    echo "Machine: $(nproc) cores, $memory, $(uname -sr). $grove," \
        "DuckDB $duckdb_version (Python $("$py" -c 'import platform; print(platform.python_version())')), $(gzip --version | head -n 1)."
    echo "Wall time and peak RSS are medians of $runs run(s) measured with GNU time (\`%e %M\`);" \
        "events/s and MB/s divide summary.json's \`lines\` and \`bytes_decompressed\` by the wall time."
    echo
    "$py" Benchmarks/bench_table.py "$measurements" "$sets_tsv"
    echo
    echo "## Checks: DuckDB's counts against grove-report's reports; every grove-report variant alike"
    echo
    echo '```'
    cat "$checks"
    echo '```'
} >"$tmp/results.md"

publish_results "$results"
if [ "${BENCH_KEEP_OUTPUT:-0}" = 1 ]; then log "reports of the last runs: $tmp/{large,small,friendly,high}/{grove*,duckdb}"; fi
if [ "$agree" != 1 ]; then
    die "DuckDB and grove-report, or two grove-report variants, disagree (see the checks above)"
fi
