#!/usr/bin/env python3
"""Single-thread perft, whole process, perftide against peer perfts side by side.

Each peer is a binary given by path, built by hand outside the repository:

    bench/cpu_peers.py --peer gigantua=/path/to/Gigantua --peer mperft=/path/to/mperft \
                       --peer stockfish=/usr/games/stockfish

A known name (gigantua, mperft, stockfish) brings its own command line; any
other takes a template, NAME=PATH ARGS with {fen} and {depth} in ARGS. A run
counts only if it exits 0 and its output holds the expected count (gigantua
checks the count itself: its exit status says whether it matched).

Timing is the wall clock of the whole process (start-up included, as a user
sees it), in alternating rounds: perftide, then every peer, per position, so
that drifts of a shared machine fall on all engines alike. The figure of
record is the median over the rounds; ratios are perftide's speed over the
peer's (above 1: perftide is faster). Writes results/cpu_peers.json.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

from machine_info import machine

POSITIONS = [
    ("start d6", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324),
    ("start d7", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7, 3195901860),
    ("Kiwipete d5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
    ("position 3 d7", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661),
    ("position 4 d6", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706045033),
]

KNOWN = {
    "gigantua": "{path} {fen_arg} {depth} {nodes}",
    "mperft": "{path} --bulk --fen {fen_arg} --depth {depth}",
}


def git_commit(path):
    try:
        return subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class Engine:
    def __init__(self, name, command, stdin=None):
        self.name, self.command, self.stdin = name, command, stdin

    def run(self, fen, depth, nodes):
        values = {"fen": fen, "fen_arg": shlex.quote(fen), "depth": depth, "nodes": nodes}
        cmd = self.command.format(**values)
        stdin = self.stdin.format(**values) if self.stdin else None
        start = time.perf_counter()
        p = subprocess.run(cmd, shell=True, input=stdin, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        ok = p.returncode == 0 and (self.name == "gigantua" or re.search(r"\b%d\b" % nodes, p.stdout) is not None)
        if not ok:
            sys.exit("%s did not give %d for %s depth %d (exit %d):\n%s%s" %
                     (self.name, nodes, fen, depth, p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
        return seconds


def peer_engine(spec):
    name, _, rest = spec.partition("=")
    if not name or not rest:
        sys.exit("--peer wants NAME=PATH or NAME=PATH ARGS, got %r" % spec)
    parts = shlex.split(rest)
    path = parts[0]
    if not os.access(path, os.X_OK):
        sys.exit("--peer %s: %s is not an executable file" % (name, path))
    if name == "stockfish":
        return Engine(name, shlex.quote(path), "uci\nsetoption name Threads value 1\nposition fen {fen}\n"
                                               "go perft {depth}\nquit\n"), path
    if len(parts) > 1:
        return Engine(name, " ".join([shlex.quote(path)] + parts[1:]).replace("{fen}", "{fen_arg}")), path
    if name not in KNOWN:
        sys.exit("--peer %s: unknown peer; give its arguments: NAME=PATH ARGS with {fen} and {depth}" % name)
    return Engine(name, KNOWN[name].replace("{path}", shlex.quote(path))), path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--perftide", default="build/perftide")
    ap.add_argument("--peer", action="append", default=[], help="NAME=PATH [ARGS] (repeatable)")
    ap.add_argument("--peer-commit", action="append", default=[], help="NAME=COMMIT of a peer's source")
    ap.add_argument("--peer-options", action="append", default=[], help="NAME=TEXT: how the peer was built")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--positions", default="", help="comma-separated position names (default: all)")
    ap.add_argument("--out", default="results/cpu_peers.json")
    args = ap.parse_args()

    perftide = Engine("perftide", shlex.quote(args.perftide) +
                    " perft --backend cpu --threads 1 --split 0 --hash 0 --quiet --depth {depth} --fen {fen_arg}")
    engines, paths = [perftide], {"perftide": args.perftide}
    for spec in args.peer:
        e, path = peer_engine(spec)
        engines.append(e)
        paths[e.name] = path
    commits = dict(s.split("=", 1) for s in args.peer_commit)
    options = dict(s.split("=", 1) for s in args.peer_options)
    wanted = [s.strip() for s in args.positions.split(",") if s.strip()]
    positions = [p for p in POSITIONS if not wanted or p[0] in wanted]
    if wanted and len(positions) != len(wanted):
        sys.exit("unknown position in --positions; known: " + ", ".join(p[0] for p in POSITIONS))

    times = {(e.name, p[0]): [] for e in engines for p in positions}
    for r in range(args.rounds):
        for name, fen, depth, nodes in positions:
            for e in engines:
                times[(e.name, name)].append(e.run(fen, depth, nodes))
        print("round %d of %d done" % (r + 1, args.rounds), file=sys.stderr)

    rows = []
    for name, fen, depth, nodes in positions:
        row = {"position": name, "fen": fen, "depth": depth, "nodes": nodes, "engines": {}}
        g = statistics.median(times[("perftide", name)])
        for e in engines:
            t = times[(e.name, name)]
            m = statistics.median(t)
            row["engines"][e.name] = {"median_seconds": round(m, 4), "seconds": [round(x, 4) for x in t],
                                      "mnps": round(nodes / m / 1e6, 1)}
            if e.name != "perftide":
                row["engines"][e.name]["perftide_speed_ratio"] = round(m / g, 3)
        rows.append(row)
        print("%-14s " % name + "  ".join("%s %.3f s" % (e.name, statistics.median(times[(e.name, name)]))
                                          for e in engines))

    peers = [{"name": e.name, "path": paths[e.name], "commit": commits.get(e.name, "unknown"),
              "options": options.get(e.name, ""), "command": e.command} for e in engines[1:]]
    out = {
        "benchmark": "single-thread perft, whole process, perftide against peers",
        "date": time.strftime("%Y-%m-%d"),
        "commit": git_commit("."),
        "machine": machine(),
        "method": "wall clock of the whole process; alternating rounds (perftide then each peer, per position); "
                  "median over %d rounds; perftide_speed_ratio = peer median / perftide median" % args.rounds,
        "perftide_command": perftide.command,
        "peers": peers,
        "rows": rows,
    }
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("wrote " + args.out)


if __name__ == "__main__":
    main()
