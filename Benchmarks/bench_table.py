#!/usr/bin/env python3
"""Turns the raw measurements of run.sh into the results table (Markdown).

Usage: bench_table.py MEASUREMENTS.tsv SETS.tsv

MEASUREMENTS.tsv: one line per run: set, tool, run, wall_seconds, max_rss_kib (GNU time %e %M).
SETS.tsv: one line per set: set, label, summary.json of a grove-report run on it, compressed
bytes of its files. The first two sets are the large and the small one of the same shape (for
the large/small ratios).

Prints, per set and tool, the median wall time, events/s (summary.json `lines` / wall),
decompressed MB/s (`bytes_decompressed` / wall / 1e6) and the median peak RSS, then the ratios
of medians (each against a baseline measured in the same run) beside the targets of issue 34.
Standard library only.
"""

import json
import statistics
import sys

TOOLS = [("gzip", "gzip -dc, 2 parallel (limit)"),
         ("grove", "grove-report run (zlib)"),
         ("grove-isal", "grove-report run --inflate isal"),
         ("grove-j1", "grove-report run --jobs 1 (zlib)"),
         ("grove-isal-j1", "grove-report run --jobs 1 --inflate isal"),
         ("duckdb", "DuckDB (duckdb_reports.py)")]

# (title, numerator tool, denominator tool, target of issue 34)
RATIOS = [("grove-report / gzip limit (wall), zlib", "grove", "gzip", "≤ 1.5 (goal 1.0)"),
          ("grove-report / gzip limit (wall), ISA-L", "grove-isal", "gzip", "≤ 1.5 (goal 1.0)"),
          ("DuckDB / grove-report (wall), zlib", "duckdb", "grove", "≥ 3"),
          ("DuckDB / grove-report (wall), ISA-L", "duckdb", "grove-isal", "≥ 3"),
          ("--jobs 1 / --jobs 2 (wall), zlib", "grove-j1", "grove", "≥ 1.8"),
          ("--jobs 1 / --jobs 2 (wall), ISA-L", "grove-isal-j1", "grove-isal", "≥ 1.8")]


def main():
    measurements, sets_file = sys.argv[1], sys.argv[2]
    runs = {}
    with open(measurements, encoding="utf-8") as f:
        for line in f:
            name, tool, _run, wall, rss = line.rstrip("\n").split("\t")
            runs.setdefault((name, tool), []).append((float(wall), int(rss)))
    sets = []
    with open(sets_file, encoding="utf-8") as f:
        for line in f:
            name, label, summary_path, compressed = line.rstrip("\n").split("\t")
            with open(summary_path, encoding="utf-8") as s:
                summary = json.load(s)
            sets.append((name, label, summary, int(compressed)))

    median = {}
    out = []
    out.append("| set | tool | wall s (median) | events/s | decompressed MB/s | peak RSS MiB |")
    out.append("|---|---|---:|---:|---:|---:|")
    for name, label, summary, _ in sets:
        for tool, tool_label in TOOLS:
            samples = runs.get((name, tool))
            if not samples:
                continue
            wall = statistics.median(w for w, _ in samples)
            rss = statistics.median(r for _, r in samples) / 1024
            median[(name, tool)] = (wall, rss)
            speed = summary["lines"] / wall if wall > 0 else float("inf")
            mbs = summary["bytes_decompressed"] / wall / 1e6 if wall > 0 else float("inf")
            out.append(f"| {label} | {tool_label} | {wall:.2f} | {speed:,.0f} | {mbs:,.0f} | {rss:,.0f} |")
    out.append("")

    def ratio(a, b):
        return f"{a / b:.2f}" if b > 0 else "n/a"

    out.append("| ratio | " + " | ".join(label for _, label, _, _ in sets) + " | target |")
    out.append("|---|" + "---:|" * len(sets) + "---|")
    for title, num, den, target in RATIOS:
        cells = []
        for name, _, _, _ in sets:
            if (name, num) in median and (name, den) in median:
                cells.append(ratio(median[(name, num)][0], median[(name, den)][0]))
            else:
                cells.append("n/a")
        if any(cell != "n/a" for cell in cells):
            out.append(f"| {title} | " + " | ".join(cells) + f" | {target} |")
    for tool, backend in [("grove", "zlib"), ("grove-isal", "ISA-L")]:
        cells = [f"{median[(name, tool)][1]:,.0f}" if (name, tool) in median else "n/a" for name, _, _, _ in sets]
        if any(cell != "n/a" for cell in cells):
            out.append(f"| peak RSS MiB, {backend} | " + " | ".join(cells) + " | ≤ 800 (10M) |")
    out.append("")
    if len(sets) >= 2:
        (large, large_label, large_summary, _), (small, small_label, small_summary, _) = sets[0], sets[1]
        lines = ratio(large_summary["lines"], small_summary["lines"])
        for tool, backend in [("grove", "zlib"), ("grove-isal", "ISA-L")]:
            if (large, tool) in median and (small, tool) in median:
                lw, lr = median[(large, tool)]
                sw, sr = median[(small, tool)]
                out.append(f"grove-report ({backend}) {large_label} / {small_label} ({lines}x the lines): "
                           f"wall {ratio(lw, sw)}x (target ≤ 10.5), peak RSS {ratio(lr, sr)}x")
                out.append("")
    out.append("| set | lines | files | compressed MB | decompressed MB | accepted | rejected |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for _, label, summary, compressed in sets:
        accepted = sum(summary["accepted"].values())
        rejected = sum(summary["rejected"].values())
        out.append(f"| {label} | {summary['lines']:,} | {summary['files']} | {compressed / 1e6:,.1f} | "
                   f"{summary['bytes_decompressed'] / 1e6:,.1f} | {accepted:,} | {rejected:,} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
