#!/usr/bin/env python3
"""Diagrams per ply from the start position (perftide unique --diagrams)
beside the published terms of OEIS A019319, A209433 and A209080
(tests/data/unique/diagrams.txt): one run, its wall time and peak memory,
every column checked. Writes results/research/diagrams.json.

Usage: bench/research_diagrams.py [--perftide build/perftide] [--depth 7] [--out FILE]
"""
import argparse
import json
import os
import resource
import subprocess
import time

from machine_info import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS = [("diagrams", "A019319"), ("diagrams_first", "A209433"), ("diagrams_unique", "A209080")]


def published():
    terms = {}
    with open(os.path.join(ROOT, "tests/data/unique/diagrams.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                ply, *values = (int(v) for v in line.split())
                terms[ply] = values
    return terms


def commit():
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perftide", default=os.path.join(ROOT, "build/perftide"))
    ap.add_argument("--depth", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(ROOT, "results/research/diagrams.json"))
    a = ap.parse_args()
    start = time.monotonic()
    run = subprocess.run([a.perftide, "unique", "--depth", str(a.depth), "--diagrams", "--json"],
                         capture_output=True, text=True, check=True)
    wall = time.monotonic() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    terms = published()
    plies = []
    for row in json.loads(run.stdout)["plies"]:
        ply = row["ply"]
        entry = {"ply": ply, "distinct": row["distinct"]}
        for i, (key, oeis) in enumerate(COLUMNS):
            entry[key] = {"value": row[key], "published": terms[ply][i], "sequence": oeis,
                          "matches": int(row[key]) == terms[ply][i]}
        plies.append(entry)
    out = {"benchmark": "diagrams per ply from the start position", "command":
           f"perftide unique --depth {a.depth} --diagrams --json", "commit": commit(),
           "date": time.strftime("%Y-%m-%d"), "machine": machine(), "wall_seconds": round(wall, 1),
           "peak_rss_gib": round(peak_kb / 2**20, 2), "all_match": all(
               c["matches"] for p in plies for c in (p[k] for k, _ in COLUMNS)), "plies": plies}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"{a.out}: depth {a.depth}, {wall:.1f} s, {out['peak_rss_gib']} GiB, all match: {out['all_match']}")


if __name__ == "__main__":
    main()
