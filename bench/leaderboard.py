#!/usr/bin/env python3
"""The perft leaderboard's method, run here beside the peers on one machine.

For each engine, mode and position: iterative deepening from depth 1, each
depth's count read from `^Nodes searched: \\d+$` (UCI engines) or from the
one-shot binary's output, checked against the published count, until the
position's time (default 60 s) is spent; the deepest depth finished, its
nodes and the nodes per second over the finished depths are recorded. A
wrong count disqualifies the engine in that mode.

Modes: 1 thread or all cores, 1 MB or 4 GB table (UCI `Threads`, `Hash`);
one-shot peers take the modes their command line can express
({threads}, {hash_mb} in the template) or run as they are.

Usage:
  bench/leaderboard.py [--seconds 60] [--json results/leaderboard.json]
      [--engine "perftide=uci:build/perftide uci"] [--engine "stockfish=uci:/usr/games/stockfish"]
      [--engine "NAME=cmd:PATH {fen} {depth}"] [--modes 1t-1mb,1t-4gb,all-1mb,all-4gb]
      [--engine-modes NAME=MODES] [--engine-info NAME=TEXT] [--update]

A one-shot engine's total is the last integer of its output (or the first
group of --total-regex NAME=REGEX). Peers are built by hand outside the
repository and taken by path. --engine-modes NAME=1t-1mb runs an engine in
those modes only (one with neither threads nor a table runs the same in all).
"""
import argparse
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time

from machine_info import machine
from uci_process import UciProcess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The leaderboard's three positions and their published counts.
POSITIONS = {
    "start": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
              [20, 400, 8902, 197281, 4865609, 119060324, 3195901860, 84998978956, 2439530234167,
               69352859712417, 2097651003696806, 62854969236701747, 1981066775000396239]),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                 [48, 2039, 97862, 4085603, 193690690, 8031647685]),  # deeper: by agreement
    # The SJE position: no published table here; its counts are checked by
    # agreement between the engines of the run (a disagreement is reported).
    "sje": ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []),
}
NODES = re.compile(r"^Nodes searched: (\d+)\s*$")
MODES = {"1t-1mb": (1, 1), "1t-4gb": (1, 4096), "all-1mb": (0, 1), "all-4gb": (0, 4096)}


class UciEngine(UciProcess):
    def __init__(self, command, threads, hash_mb):
        super().__init__(command)
        self.send(f"setoption name Threads value {threads}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait_for(lambda l: l == "readyok", 60)

    def perft(self, fen, depth, timeout):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.wait_for(lambda l: l.startswith("Nodes searched:"), timeout)
        if lines is None:
            return None
        m = NODES.match(lines[-1])
        return int(m.group(1)) if m else -1


class OneShotEngine:
    def __init__(self, template, threads, hash_mb, total_regex):
        self.template, self.threads, self.hash_mb = template, threads, hash_mb
        self.total = re.compile(total_regex) if total_regex else None

    def perft(self, fen, depth, timeout):
        cmd = self.template.format(fen=fen, depth=depth, threads=self.threads or os.cpu_count(),
                                   hash_mb=self.hash_mb)
        # Its own process group, killed whole when the time runs out: a
        # shell's child left running would steal the cores from what follows.
        p = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             start_new_session=True)
        try:
            out = p.communicate(timeout=timeout)[0]
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return None
        if self.total:
            m = self.total.search(out)
            return int(m.group(1)) if m else -1
        nums = re.findall(r"\d+", out.replace(",", ""))
        return int(nums[-1]) if nums else -1

    def close(self):
        pass


def run_position(engine, fen, published, seconds, agreed):
    """Depths finished within `seconds`: [(depth, nodes, s)], and the first wrong count if any."""
    done, spent = [], 0.0
    for depth in range(1, 40):
        left = seconds - spent
        if left <= 0:
            break
        t = time.monotonic()
        n = engine.perft(fen, depth, left)
        dt = time.monotonic() - t
        if n is None:  # the time ran out in this depth
            break
        want = published[depth - 1] if depth <= len(published) else agreed.get(depth)
        if n < 0 or (want is not None and n != want):
            return done, {"depth": depth, "got": n, "expected": want}
        agreed.setdefault(depth, n)
        spent += dt
        done.append((depth, n, round(dt, 4)))
    return done, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", default=[])
    ap.add_argument("--total-regex", action="append", default=[])
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--engine-modes", action="append", default=[])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--json")
    ap.add_argument("--engine-info", action="append", default=[], help="NAME=TEXT: how a peer was built")
    ap.add_argument("--update", action="store_true",
                    help="keep the --json file's rows of the engines not run now (each engine records its date)")
    a = ap.parse_args()
    engines = a.engine or [f"perftide=uci:{os.path.join(ROOT, 'build', 'perftide')} uci",
                           "stockfish=uci:/usr/games/stockfish"]
    regexes = dict(r.split("=", 1) for r in a.total_regex)
    engine_modes = dict(r.split("=", 1) for r in a.engine_modes)
    infos = dict(r.split("=", 1) for r in a.engine_info)
    for modes in [a.modes, *engine_modes.values()]:
        for mode in modes.split(","):
            if mode not in MODES:
                ap.error(f"'{mode}' is not a mode: use {', '.join(MODES)}")
    report = {"benchmark": "perft leaderboard method: iterative deepening, time per position, four modes",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                       text=True).stdout.strip(),
              "machine": machine(),
              "seconds_per_position": a.seconds, "engines": {}, "rows": []}
    agreed = {name: {} for name in POSITIONS}  # depth -> count, for positions without a table
    if a.update and a.json and os.path.exists(a.json):
        with open(a.json) as f:
            old = json.load(f)
        running = {spec.split("=", 1)[0] for spec in engines}
        for name, e in old["engines"].items():
            if name not in running:
                report["engines"][name] = {"run_date": old["date"], "run_commit": old["commit"], **e}
        report["rows"] = [r for r in old["rows"] if r["engine"] not in running]
        for r in report["rows"]:  # the kept counts check the new engines' too
            for depth, n, _ in r["depths"]:
                agreed[r["position"]].setdefault(depth, n)
    for spec in engines:
        name, rest = spec.split("=", 1)
        kind, command = rest.split(":", 1)
        report["engines"][name] = {"run_date": report["date"], "run_commit": report["commit"], "kind": kind,
                                   "command": command}
        if name in infos:
            report["engines"][name]["build"] = infos[name]
        for mode in engine_modes.get(name, a.modes).split(","):
            threads, hash_mb = MODES[mode]
            uci_threads = threads or os.cpu_count()
            for pos, (fen, published) in POSITIONS.items():
                engine = (UciEngine(command, uci_threads, hash_mb) if kind == "uci"
                          else OneShotEngine(command, threads, hash_mb, regexes.get(name)))
                done, wrong = run_position(engine, fen, published, a.seconds, agreed[pos])
                engine.close()
                nodes = sum(n for _, n, _ in done)
                secs = sum(s for _, _, s in done)
                row = {"engine": name, "mode": mode, "position": pos, "deepest": done[-1][0] if done else 0,
                       "nodes": nodes, "seconds": round(secs, 3), "nps": round(nodes / secs) if secs else None,
                       "depths": done, "disqualified": wrong}
                report["rows"].append(row)
                print(f"{name:10} {mode:8} {pos:9} depth {row['deepest']:2}  {nodes:>16,} nodes "
                      f"{row['seconds']:8.2f} s  {row['nps'] or 0:>14,} n/s" + (f"  WRONG {wrong}" if wrong else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    return 1 if any(r["disqualified"] for r in report["rows"]) else 0


if __name__ == "__main__":
    sys.exit(main())
