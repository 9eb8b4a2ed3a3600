#!/usr/bin/env python3
"""Checks a `perftide perft --stats --json` result against a Grand Chess Tree
results file: every column the two rows share at the given depth must be
equal. Prints "match: N columns" or "mismatch: ..." and exits 0 or 1
(2 when a file cannot be read). Used by bench/device_check.sh.

Usage: gct_row_check.py PERFTIDE_OUTPUT GCT_RESULTS_JSON DEPTH
"""
import json
import sys

SKIP = {"depth", "position", "total_tasks", "started_at", "finished_at", "contributors"}


def perftide_row(path, depth):
    with open(path) as f:
        lines = [line for line in f if line.startswith("{")]
    if not lines:
        raise ValueError(f"{path}: no JSON line")
    rows = [r for r in json.loads(lines[-1])["stats"] if r["depth"] == depth]
    if not rows:
        raise ValueError(f"{path}: no row at depth {depth}")
    return rows[0]


def gct_row(path, depth):
    with open(path) as f:
        rows = [r for r in json.load(f)["results"] if r["depth"] == depth]
    if not rows:
        raise ValueError(f"{path}: no row at depth {depth}")
    return rows[0]


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[-1])
        return 2
    depth = int(argv[3])
    try:
        got, want = perftide_row(argv[1], depth), gct_row(argv[2], depth)
    except (OSError, ValueError, KeyError) as e:
        print(f"unreadable: {e}")
        return 2
    shared = sorted(k for k in want if k in got and k not in SKIP)
    wrong = [f"{k}: got {got[k]}, want {want[k]}" for k in shared if int(got[k]) != int(want[k])]
    if wrong or not shared:
        print("mismatch: " + ("; ".join(wrong) if wrong else "no shared column"))
        return 1
    print(f"match: {len(shared)} columns at depth {depth}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
