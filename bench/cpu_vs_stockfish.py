#!/usr/bin/env python3
"""Single-thread CPU perft: gperft against Stockfish's `go perft`, side by side.

Both engines are timed from the request to the answer, with start-up
excluded: Stockfish over UCI (from `go perft N` to `Nodes searched`), gperft
by its own --json seconds (tables are built before the clock starts). Each
measurement is the best of --repeat runs. Writes results/cpu_vs_stockfish.json.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

POSITIONS = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119060324),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661),
]


def stockfish_perft(engine, fen, depth):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError("stockfish ended before printing " + prefix)

    send("uci")
    wait_for("uciok")
    send("setoption name Threads value 1")
    send("position fen " + fen)
    send("isready")
    wait_for("readyok")
    start = time.perf_counter()
    send("go perft %d" % depth)
    line = wait_for("Nodes searched")
    seconds = time.perf_counter() - start
    send("quit")
    p.wait(timeout=10)
    return int(line.split(":")[1]), seconds


def gperft_perft(binary, fen, depth):
    # --split 0 --hash 0: plain perft without work units or transposition
    # table, like Stockfish's `go perft` (deep runs pick tables by themselves).
    out = subprocess.run([binary, "perft", "--backend", "cpu", "--threads", "1", "--split", "0", "--hash", "0",
                          "--json", "--depth", str(depth), "--fen", fen],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return int(r["nodes"]), float(r["seconds"])


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "system": platform.platform()}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--gperft", default="build/gperft")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="results/cpu_vs_stockfish.json")
    args = ap.parse_args()

    sf_version = subprocess.run([args.stockfish], input="quit\n", capture_output=True, text=True).stdout.split("\n")[0]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    rows = []
    for name, fen, depth, expected in POSITIONS:
        g = min((gperft_perft(args.gperft, fen, depth) for _ in range(args.repeat)), key=lambda r: r[1])
        s = min((stockfish_perft(args.stockfish, fen, depth) for _ in range(args.repeat)), key=lambda r: r[1])
        if g[0] != expected or s[0] != expected:
            sys.exit("count mismatch on %s: gperft %d, stockfish %d, expected %d" % (name, g[0], s[0], expected))
        row = {"position": name, "fen": fen, "depth": depth, "nodes": expected,
               "gperft_seconds": round(g[1], 4), "gperft_nps": round(expected / g[1]),
               "stockfish_seconds": round(s[1], 4), "stockfish_nps": round(expected / s[1]),
               "ratio": round(s[1] / g[1], 2)}
        rows.append(row)
        print("%-15s d%d  gperft %7.1f Mnps  stockfish %7.1f Mnps  ratio %.2fx" %
              (name, depth, row["gperft_nps"] / 1e6, row["stockfish_nps"] / 1e6, row["ratio"]))
    result = {"benchmark": "single-thread CPU perft, gperft vs Stockfish go perft",
              "date": time.strftime("%Y-%m-%d"), "commit": commit, "machine": machine(),
              "peer": sf_version, "repeat": args.repeat, "method": "best of repeat; start-up excluded",
              "rows": rows}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
