#!/usr/bin/env bash
# The Spark equivalence tests (issue 6), run by .ci/run after `swift test`:
#   1. builds the binary that is shipped to Spark executors (static Swift runtime),
#   2. installs Java's runtime when `java` is missing (Debian's default-jre-headless),
#   3. creates spark/.venv with pyspark and pytest when it is missing or incomplete,
#   4. runs spark/test_spark_equivalence.py (Spark in local[2]).
# Each step is skipped quickly when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

PYSPARK_VERSION=3.5.3
VENV=spark/.venv

swift build -c release --static-swift-stdlib --scratch-path .build/static

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if ! command -v java >/dev/null 2>&1; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless
fi

if ! "$VENV/bin/python" -c "import pytest, pyspark; assert pyspark.__version__ == '$PYSPARK_VERSION'" 2>/dev/null; then
    if ! python3 -m venv "$VENV"; then
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv
        python3 -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install -q "pyspark==$PYSPARK_VERSION" pytest
fi

export GROVE_REPORT_BIN="${GROVE_REPORT_BIN:-$PWD/.build/static/release/grove-report}"
export PYSPARK_PYTHON="$PWD/$VENV/bin/python"
exec "$VENV/bin/python" -m pytest -q -p no:cacheprovider spark/test_spark_equivalence.py
