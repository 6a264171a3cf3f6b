#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/Targets into .build/fuzz/: the GroveReport library once,
# instrumented for coverage and AddressSanitizer, then one executable per target.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=.build/fuzz
mkdir -p "$BUILD"
SANITIZE=(-sanitize=fuzzer,address -O -g)
# Every C module of the package (system libraries and header-only shims), whatever is added later.
INCLUDES=()
for module in Sources/C*/; do INCLUDES+=(-I "${module%/}"); done
# gold's harmless complaint about each AddressSanitizer helper symbol.
LINKER_NOISE="Cannot export local symbol"
LIBRARY_SOURCES=$(find Sources/GroveReport -name '*.swift' | sort)

if [ ! -f "$BUILD/libGroveReport.a" ] \
    || [ -n "$(find Sources/GroveReport Fuzz/build.sh -newer "$BUILD/libGroveReport.a" -print -quit)" ]; then
    # shellcheck disable=SC2086
    swiftc -module-name GroveReport -package-name grove_report -parse-as-library -enable-testing -wmo "${SANITIZE[@]}" "${INCLUDES[@]}" \
        -emit-module -emit-module-path "$BUILD/GroveReport.swiftmodule" \
        -emit-library -static -o "$BUILD/libGroveReport.a" $LIBRARY_SOURCES 2> >(grep -v "$LINKER_NOISE" >&2)
fi
for target in Fuzz/Targets/*.swift; do
    name=$(basename "$target" .swift)
    if [ ! -x "$BUILD/$name" ] || [ "$target" -nt "$BUILD/$name" ] || [ "$BUILD/libGroveReport.a" -nt "$BUILD/$name" ]; then
        swiftc -package-name grove_report -parse-as-library "${SANITIZE[@]}" "${INCLUDES[@]}" -I "$BUILD" -L "$BUILD" -lGroveReport \
            -lz -lcrypto -lsqlite3 -o "$BUILD/$name" "$target" 2> >(grep -v "$LINKER_NOISE" >&2)
    fi
done
