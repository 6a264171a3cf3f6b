#!/usr/bin/env python3
"""Checks that DuckDB's counts (duckdb_reports.py) agree with grove-report's reports.

Usage: compare_reports.py GROVE_OUT_DIR DUCKDB_OUT_DIR [--label NAME]

Compares, per campaign, the attribution columns and, per (campaign, variant), the exposure
columns, plus the accepted lines per event type (summary.json), and prints one agreement line
per report followed by every mismatch with both values. Exit status 0 when everything agrees,
1 otherwise. Standard library only.
"""

import argparse
import csv
import json
import os
import re
import sys

ATTRIBUTION_CHECKED = ["clicks", "store_clicks", "app_clicks", "opens", "attributed"]
ATTRIBUTION_EXTRA = ["open_retries", "open_conflicts", "bind_retries", "bind_conflicts"]
EXPOSURE_CHECKED = ["units", "impressions", "orders", "revenue_minor", "converted_units"]

# docs/OUTPUTS.md, Formats: text starting with = + - @ tab or CR that is not a number gets a leading '.
NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
GUARDED_START = ("=", "+", "-", "@", "\t", "\r")


def unguard(text):
    """Undoes grove-report's spreadsheet formula guard on a CSV text field."""
    if (len(text) > 1 and text[0] == "'" and text[1:].startswith(GUARDED_START)
            and not NUMBER.fullmatch(text[1:])):
        return text[1:]
    return text


def read_rows(path, key_columns, guarded):
    with open(path, newline="", encoding="utf-8") as f:
        rows = {}
        for row in csv.DictReader(f):
            key = tuple(unguard(row[k]) if guarded else row[k] for k in key_columns)
            if key in rows:
                raise SystemExit(f"{path}: duplicate row {key!r}")
            rows[key] = row
        return rows


def show(key):
    return " / ".join(repr(k) for k in key)


def compare(name, unit, grove, duck, columns, extra=()):
    """Prints the agreement line and the mismatches; returns True when all rows agree."""
    keys = sorted(set(grove) | set(duck))
    problems = []
    agree = 0
    for key in keys:
        if key not in grove:
            problems.append(f"    {show(key)}: only in DuckDB")
            continue
        if key not in duck:
            problems.append(f"    {show(key)}: only in grove-report")
            continue
        diffs = [f"{c} grove-report={grove[key][c]} duckdb={duck[key][c]}"
                 for c in list(columns) + list(extra) if int(grove[key][c]) != int(duck[key][c])]
        if diffs:
            problems.append(f"    {show(key)}: " + "; ".join(diffs))
        else:
            agree += 1
    checked = ", ".join(columns) + (f"; also {', '.join(extra)}" if extra else "")
    verdict = "agree" if not problems else "DISAGREE"
    print(f"  {name}: {agree}/{len(keys)} {unit} agree ({checked}){'' if not problems else '  <-- ' + verdict}")
    for line in problems:
        print(line)
    return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("grove_out")
    parser.add_argument("duckdb_out")
    parser.add_argument("--label", default="")
    args = parser.parse_args()

    print(f"check {args.label}: DuckDB vs grove-report".replace("  ", " "))
    ok = True

    with open(os.path.join(args.grove_out, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    with open(os.path.join(args.duckdb_out, "duckdb_accepted.json"), encoding="utf-8") as f:
        duck_accepted = json.load(f)["accepted"]
    types = sorted(set(summary["accepted"]) | set(duck_accepted))
    bad = [f"    {t}: grove-report={summary['accepted'].get(t, 0)} duckdb={duck_accepted.get(t, 0)}"
           for t in types if summary["accepted"].get(t, 0) != duck_accepted.get(t, 0)]
    print(f"  accepted lines: {len(types) - len(bad)}/{len(types)} event types agree"
          + ("" if not bad else "  <-- DISAGREE (a validation rule differs; see duckdb_reports.py)"))
    for line in bad:
        print(line)
    ok &= not bad

    ok &= compare("attribution", "campaigns",
                  read_rows(os.path.join(args.grove_out, "attribution.csv"), ["campaign"], True),
                  read_rows(os.path.join(args.duckdb_out, "duckdb_attribution.csv"), ["campaign"], False),
                  ATTRIBUTION_CHECKED, ATTRIBUTION_EXTRA)
    ok &= compare("exposure", "(campaign, variant) rows",
                  read_rows(os.path.join(args.grove_out, "exposure.csv"), ["campaign", "variant"], True),
                  read_rows(os.path.join(args.duckdb_out, "duckdb_exposure.csv"), ["campaign", "variant"], False),
                  EXPOSURE_CHECKED)
    if ok:
        print("  exact agreement: every validation rule that matters for these data is replicated in SQL")
    else:
        print("  NOT in exact agreement. Rules the SQL does not replicate: a trailing comma followed by a")
        print("  tab/CR/LF, a raw CR inside a line, a disallowed key whose name contains '\"', gzip input")
        print("  errors (see the docstring of Benchmarks/duckdb_reports.py). If the data has none of these,")
        print("  the difference is a bug in one of the two implementations.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
