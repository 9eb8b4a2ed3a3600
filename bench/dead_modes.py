#!/usr/bin/env python3
"""perftide analyze's four modes (full, quick, fast, no-search) on the 65,536
Lichess positions of tests/data/dead/chasolver-lichess.txt and the 3,414 CHA
positions of tests/data/dead/chasolver-positions.txt, one thread, both sides
of every position: whole-process CPU seconds and peak memory, the sides each
mode decides, every answer checked against the file's verdicts (a "cannot
mate" where the file says the side can is wrong; so is a helpmate where it
says the side cannot), and the sides proven unable to mate set against the
full mode's: how many of those the mode proves too, and the hard case (sides
the full mode proves and the mode does not). Writes results/dead_modes.json
(the Lichess figures under "modes", the CHA figures under "sets").

Usage: dead_modes.py [--perftide build/perftide] [--rounds N] [--out FILE]
                     [--sets lichess,cha]
"""
import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile

from machine_info import cpu_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETS = {"lichess": os.path.join(ROOT, "tests/data/dead/chasolver-lichess.txt"),
        "cha": os.path.join(ROOT, "tests/data/dead/chasolver-positions.txt")}
MODES = {"full": [], "quick": ["--quick"], "fast": ["--fast"], "no-search": ["--no-search"]}


def positions(path):
    labels, fens = [], []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                labels.append(line[:2])
                fens.append(line[3:].strip())
    return labels, fens


def run(perftide, args, fen_file):
    """CPU seconds (user + system of the child), peak KB, the JSON rows."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile() as out:
        subprocess.run([perftide, "analyze", "--json", "--threads", "1", "--file", fen_file] + args,
                       stdout=out, check=True)
        out.seek(0)
        rows = [json.loads(line) for line in out]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss, rows


def score(labels, rows):
    decided = wrong = proven_no = 0
    for label, row in zip(labels, rows):
        for i, side in enumerate(("white", "black")):
            can = label[i] != "-"
            v = row[side + "_can_mate"]
            if v is None:
                continue
            decided += 1
            wrong += v != can
            proven_no += v is False and not can
    return {"sides_decided": decided, "wrong": wrong, "cannot_mate_proven": proven_no,
            "cannot_mate_sides": sum((l[0] == "-") + (l[1] == "-") for l in labels)}


def against_full(full_rows, rows):
    """Sides the full mode proves unable to mate, and how many of them the mode proves too."""
    full_no = also = 0
    for full, row in zip(full_rows, rows):
        for side in ("white", "black"):
            if full[side + "_can_mate"] is False:
                full_no += 1
                also += row[side + "_can_mate"] is False
    return {"full_cannot_mate_proven": full_no, "of_those_proven": also, "hard_case": full_no - also,
            "share_of_full": round(also / full_no, 4) if full_no else None}


def measure(perftide, rounds, path, name):
    """Every mode on one file: the best of `rounds` runs' CPU time with its scores."""
    labels, fens = positions(path)
    with tempfile.NamedTemporaryFile("w", suffix=".fens", delete=False) as f:
        f.write("\n".join(fens) + "\n")
        fen_file = f.name
    results, rows_of = {}, {}
    try:
        for r in range(rounds):
            for mode, args in MODES.items():
                cpu, peak, rows = run(perftide, args, fen_file)
                assert len(rows) == len(fens), (mode, len(rows))
                rows_of[mode] = rows
                best = results.get(mode)
                if best is None or cpu < best["cpu_seconds"]:
                    results[mode] = dict(score(labels, rows), cpu_seconds=round(cpu, 3),
                                         us_per_position=round(cpu / len(fens) * 1e6, 2), peak_rss_kb=peak)
                print("%s round %d %-9s %.2f s" % (name, r + 1, mode, cpu), file=sys.stderr)
    finally:
        os.unlink(fen_file)
    for mode in results:
        results[mode].update(against_full(rows_of["full"], rows_of[mode]))
    return len(fens), results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perftide", default=os.path.join(ROOT, "build/perftide"))
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "results/dead_modes.json"))
    ap.add_argument("--sets", default="lichess,cha", help="comma-separated: lichess, cha")
    a = ap.parse_args()
    measured = {name: measure(a.perftide, a.rounds, SETS[name], name) for name in a.sets.split(",")}
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    doc = {"benchmark": "analyze modes on Lichess and CHA positions", "threads": 1,
           "rounds": a.rounds, "commit": commit, "machine": platform.processor() or platform.machine(),
           "cpu": cpu_model(),
           "note": "peak_rss_kb is the largest child so far (getrusage), so it only grows across modes; "
                   "hard_case: sides the full mode proves cannot mate and this mode does not",
           "sets": {name: {"file": os.path.relpath(SETS[name], ROOT), "positions": n, "modes": modes}
                    for name, (n, modes) in measured.items()}}
    if "lichess" in measured:  # the keys earlier records used
        doc["positions"], doc["modes"] = measured["lichess"]
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    print(json.dumps(doc["sets"], indent=2))


if __name__ == "__main__":
    main()
