#!/usr/bin/env bash
# Instructions per line (issue 11): what grove-report executes for each input line, counted by
# callgrind on one thread, for the working tree's build against a baseline revision's build, on
# the same production-shaped sample. Wall time on this shared host moves by 20-50 % with its load
# (docs/PERFORMANCE.md); an instruction count does not, so a change worth a few per cent shows.
#
#   Benchmarks/instructions.sh         the working tree against HEAD
#   Benchmarks/instructions.sh REV     the working tree against REV
#
# Environment: INSTR_LINES, INSTR_INFLATE, GROVE_BIN, BASE_BIN, BENCH_SCRATCH_PATH,
# INSTR_BASE_PATH, INSTR_RESULTS. See Benchmarks/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: Benchmarks/instructions.sh [REV]

Builds grove-report (release) from the working tree and from REV (default HEAD, in a git
worktree under .build/), generates one production-shaped sample (generate --shape production
--seed 1 --files 1), runs both builds on it and on an empty input with --jobs 1 under callgrind,
checks that they wrote the same reports, and prints instructions per line (start-up, the empty
input's count, taken out), their ratio and the functions whose count per line changed most; the
table is also written to Benchmarks/results/instructions.md.

  INSTR_LINES         lines of the sample (default 25000)
  INSTR_INFLATE       zlib (default) or isal
  GROVE_BIN           measure this binary instead of building the working tree
  BASE_BIN            use this binary as the baseline instead of building REV
  BENCH_SCRATCH_PATH  build the working tree with --scratch-path DIR instead of .build
  INSTR_BASE_PATH     the baseline's worktree (default .build/instructions-base)
  INSTR_RESULTS       write the table here instead
EOF
}

case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    -*) echo "instructions.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
[ $# -le 1 ] || { echo "instructions.sh: at most one revision (try --help)" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

log() { printf '==> %s\n' "$*"; }
die() { printf 'instructions.sh: %s\n' "$*" >&2; exit 1; }

rev=${1:-HEAD}
base_commit=$(git rev-parse --verify -q --short "$rev^{commit}") || die "'$rev' is not a commit of this repository"
lines=${INSTR_LINES:-25000}
[[ "$lines" =~ ^[1-9][0-9]*$ ]] || die "INSTR_LINES must be a positive integer, not '$lines'"
inflate=${INSTR_INFLATE:-zlib}
case "$inflate" in zlib | isal) ;; *) die "INSTR_INFLATE must be zlib or isal, not '$inflate'" ;; esac
results=${INSTR_RESULTS:-Benchmarks/results/instructions.md}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grove-instructions.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=Benchmarks/tools.sh
. "$here/tools.sh"
require_valgrind
command -v python3 >/dev/null || die "python3 is needed to read callgrind's counts"

find_grove_report
current=$bin
current_label="working tree ($(source_label))"
if [ -n "${GROVE_BIN:-}" ]; then current_label="GROVE_BIN=$GROVE_BIN"; fi

if [ -n "${BASE_BIN:-}" ]; then
    [ -x "$BASE_BIN" ] || die "BASE_BIN=$BASE_BIN is not an executable file"
    base=$BASE_BIN
    base_label="BASE_BIN=$BASE_BIN"
else
    # One worktree kept between runs, checked out at the baseline: only what changed is rebuilt.
    worktree=${INSTR_BASE_PATH:-.build/instructions-base}
    git worktree prune
    if [ -e "$worktree/.git" ]; then
        git -C "$worktree" checkout -q --detach "$base_commit"
    else
        git worktree add -q --detach "$worktree" "$base_commit"
    fi
    log "building $base_commit in $worktree (swift build -c release)"
    base=$(release_build "$worktree" "$tmp/base-build.log")
    base_label="$base_commit ($rev)"
fi

sample=$tmp/sample
log "generating $lines production-shaped lines"
"$current" generate --out "$sample" --shape production --events "$lines" --files 1 --seed 1 >/dev/null \
    || die "grove-report generate failed"
empty=$tmp/empty.ndjson
: >"$empty"

count() { # name binary input: runs it under callgrind into $tmp/NAME{,.out}
    local name=$1 binary=$2 input=$3
    if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.out" "$binary" run "$input" \
        --out "$tmp/$name" --jobs 1 --max-reject-rate 1 --inflate "$inflate" </dev/null >/dev/null 2>"$tmp/$name.log"; then
        tail -n 20 "$tmp/$name.log" >&2
        die "$binary failed under callgrind on $input"
    fi
}

for build in base current; do
    binary=$base
    if [ "$build" = current ]; then binary=$current; fi
    log "counting $build on the sample and on an empty input (callgrind)"
    count "$build" "$binary" "$sample"/*.gz
    count "$build-empty" "$binary" "$empty"
    callgrind_annotate --inclusive=no --auto=no --threshold=100 "$tmp/$build.out" >"$tmp/$build.functions" 2>/dev/null
done

same=1
same_reports "$tmp/base" "$tmp/current" || same=0

{
    echo "# Instructions per line"
    echo
    echo "\`Benchmarks/instructions.sh${1:+ $1}\` on $(date -u '+%Y-%m-%d %H:%M UTC'): \`grove-report run" \
        "--jobs 1 --inflate $inflate\` on $lines production-shaped lines (\`generate --shape production" \
        "--events $lines --files 1 --seed 1\`), counted by $(valgrind --version) (callgrind);" \
        "start-up, the count of a run on an empty input, taken out."
    echo
    python3 - "$tmp" "$base_label" "$current_label" <<'PY'
import json, re, subprocess, sys

tmp, base_label, current_label = sys.argv[1:4]

def total(name):
    with open(f"{tmp}/{name}.out") as out:
        for line in out:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit(f"no total in {name}.out")

def functions(name):
    """Instructions by function name (file and library left out), from callgrind_annotate."""
    counts = {}
    pattern = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+(\S.*)$")
    with open(f"{tmp}/{name}.functions") as listing:
        for line in listing:
            match = pattern.match(line)
            if not match or "PROGRAM TOTALS" in line:
                continue
            where = re.sub(r"\s*\([\d,]+x\)$", "", match.group(2).split(" [")[0])
            # Code inlined from several files is listed once per file: one row per function.
            function = where.split(":", 1)[1] if ":" in where else where
            counts[function] = counts.get(function, 0) + int(match.group(1).replace(",", ""))
    return counts

lines = json.load(open(f"{tmp}/current/summary.json"))["lines"]
rows = {}
for build in ("base", "current"):
    whole, startup = total(build), total(f"{build}-empty")
    rows[build] = (whole, startup, (whole - startup) / lines)

print("| build | instructions | start-up | per line |")
print("|---|---:|---:|---:|")
for build, label in (("base", base_label), ("current", current_label)):
    whole, startup, per_line = rows[build]
    print(f"| {label} | {whole:,} | {startup:,} | {per_line:,.0f} |")
print(f"| ratio, working tree / base | | | **{rows['current'][2] / rows['base'][2]:.3f}** |")
print()

base, current = functions("base"), functions("current")
changes = sorted(set(base) | set(current), key=lambda name: -abs(current.get(name, 0) - base.get(name, 0)))[:12]
names = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(changes),
                       capture_output=True, text=True).stdout.splitlines()
if len(names) != len(changes):
    names = changes
print("Largest changes, each function's own instructions per line (start-up included):")
print()
print("| function | base | working tree | change |")
print("|---|---:|---:|---:|")
for name, shown in zip(changes, names):
    before, after = base.get(name, 0) / lines, current.get(name, 0) / lines
    shown = shown if len(shown) <= 90 else shown[:87] + "..."
    print(f"| `{shown}` | {before:,.1f} | {after:,.1f} | {after - before:+,.1f} |")
PY
    echo
    if [ "$same" = 1 ]; then
        echo "Check: both builds wrote the same reports (byte for byte but \`wall_seconds\`)."
    else
        echo "Check: the builds wrote DIFFERENT reports."
    fi
} >"$tmp/results.md"

publish_results "$results"
[ "$same" = 1 ] || die "the working tree's build and $base_label wrote different reports"
