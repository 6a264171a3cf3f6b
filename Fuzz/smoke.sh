#!/usr/bin/env bash
# Runs every libFuzzer target of Fuzz/Targets for SECONDS (default 45) from its seed corpus in
# Fuzz/Corpus/<target>; fails on the first crash, trap, leak or timeout and keeps the input that
# caused it in .build/fuzz/findings/. CI runs it after `swift test`; run it longer by hand with
# e.g. `Fuzz/smoke.sh 1800`. New inputs go to a scratch corpus, never into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-45}
Fuzz/build.sh
FINDINGS=.build/fuzz/findings
mkdir -p "$FINDINGS"
for target in Fuzz/Targets/*.swift; do
    name=$(basename "$target" .swift)
    scratch=$(mktemp -d)
    echo "fuzz: $name for ${SECONDS_PER_TARGET}s"
    if ! ASAN_OPTIONS=detect_leaks=1 ".build/fuzz/$name" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 \
        -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 -artifact_prefix="$FINDINGS/$name-" \
        "$scratch" "Fuzz/Corpus/$name" > "$scratch.log" 2>&1; then
        tail -50 "$scratch.log"
        echo "fuzz: $name FAILED; the input is in $FINDINGS/"
        rm -rf "$scratch" "$scratch.log"
        exit 1
    fi
    grep -E "^stat::number_of_executed_units|^Done" "$scratch.log" || true
    rm -rf "$scratch" "$scratch.log"
done
echo "fuzz: no crash, leak or timeout"
