#!/usr/bin/env python3
"""perftide proof on the published shortest proof games of
tests/data/proof/proof_games.txt: one run each (whole process, one thread),
the length and number of games found beside the published ones, wall time
and the positions kept; where the Euclide solver's own test output gives
it, the positions Euclide examined on the same problem (a different
measure: its deductions examine far fewer). Writes results/proof_games.json.

Usage: bench/proof_games.py [--perftide build/perftide] [--out FILE]
"""
import argparse
import json
import os
import subprocess
import time

from machine_info import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# "Positions examinées" in Euclide's output for these problems
# (svart-riddare/euclide, dos-euclide/bin/no-captures.output.txt).
EUCLIDE_POSITIONS = {"P0008141": 7, "P1013054": 10, "P0008146": 48, "P1001166": 34, "P0008149": 10,
                     "P0008828": 58, "P1004157": 76, "P0008148": 12, "P0008150": 34}


def problems():
    with open(os.path.join(ROOT, "tests/data/proof/proof_games.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                pid, author, source, plies, games, diagram = line.split()
                yield pid, author, source, int(plies), int(games), diagram


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perftide", default=os.path.join(ROOT, "build/perftide"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results/proof_games.json"))
    a = ap.parse_args()
    rows = []
    for pid, author, source, plies, games, diagram in problems():
        start = time.monotonic()
        run = subprocess.run([a.perftide, "proof", diagram, "--max-plies", str(plies), "--json"],
                             capture_output=True, text=True, check=True)
        wall = time.monotonic() - start
        r = json.loads(run.stdout)
        rows.append({"id": pid, "author": author, "source": source, "diagram": diagram,
                     "published_plies": plies, "published_games": games, "plies": r["shortest"],
                     "games": int(r["games"]) if r["games"] is not None else None, "verdict": r["verdict"],
                     "matches": r["shortest"] == plies and r["games"] is not None and int(r["games"]) == games,
                     "wall_seconds": round(wall, 3), "positions_kept": int(r["positions"]),
                     "euclide_positions_examined": EUCLIDE_POSITIONS.get(pid), "lines": r["lines"]})
        print(f"{pid}: {r['shortest']} plies, {r['games']} games ({r['verdict']}), {wall:.2f} s")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    out = {"benchmark": "shortest proof games of published problems", "commit": commit,
           "date": time.strftime("%Y-%m-%d"), "machine": machine(), "threads": 1,
           "all_match": all(r["matches"] for r in rows), "problems": rows}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
