#!/usr/bin/env python3
"""gperft analyze side by side with CHA (Ambrona's Chess Unwinnability
Analyzer, given by path: it is built by hand, outside the repository), on
three position sets: CHA's own test positions (tests/data/dead), positions of
random games, and generated pawn fortresses (bench/fortress_positions.py).
Both answer both sides of every position on one thread; gperft runs at its
default budget and at CHA's (500,000 nodes), the runs alternating. Records
positions per second, CPU seconds, peak memory, sides decided, and every
side where one tool proves "cannot mate" and the other shows a helpmate (an
unsound answer of one of them), in results/dead_vs_cha.json.

Usage: dead_vs_cha.py --peer cha=PATH [--gperft build/gperft] [--rounds N] [--out FILE]
Needs python-chess (build/py, made by .ci/setup) for the random games.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHA_BUDGET = 500000  # CHA 2.6.1's default search limit


def cha_positions():
    out = []
    with open(os.path.join(ROOT, "tests/data/dead/chasolver-positions.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                out.append(line[3:].strip())  # "WB fen": the verdict, then the position
    return out


def random_game_positions(count, seed=1):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(rng.randrange(20, 300)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if any(board.legal_moves):
            out.append(board.fen())
    return out


def fortress_positions():
    text = subprocess.run([sys.executable, os.path.join(ROOT, "bench/fortress_positions.py")], check=True,
                          capture_output=True, text=True).stdout
    return [line.split(" id ")[0] + " 0 1" for line in text.splitlines()]


def timed(cmd, stdin_path):
    """Runs cmd with stdin from a file: (stdout, wall s, CPU s, peak KiB)."""
    with open(stdin_path) as f:
        start = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M"] + cmd, stdin=f, capture_output=True, text=True)
        wall = time.monotonic() - start
    if p.returncode not in (0, 1):
        sys.exit("%s failed (%d): %s" % (cmd[0], p.returncode, p.stderr[-500:]))
    user, system, peak = p.stderr.strip().splitlines()[-1].split()
    return p.stdout, wall, float(user) + float(system), int(peak)


def run_cha(cha, fens, path):
    with open(path, "w") as f:
        for fen in fens:
            f.write("%s white\n%s black\n" % (fen, fen))
    out, wall, cpu, peak = timed([cha], path)
    answers = {}
    for line in out.splitlines():
        word = line.split(" ", 1)[0]
        if word in ("winnable", "unwinnable", "undetermined"):
            fen, side = line[line.index("(") + 1:line.rindex(")")].rsplit(" ", 1)
            answers[(fen, side)] = {"winnable": True, "unwinnable": False}.get(word)
    return answers, wall, cpu, peak


def run_gperft(gperft, fens, path, budget):
    with open(path, "w") as f:
        f.write("".join(fen + "\n" for fen in fens))
    cmd = [gperft, "analyze", "--json", "--threads", "1", "--file", path] + (["--budget", str(budget)] if budget else [])
    out, wall, cpu, peak = timed(cmd, os.devnull)
    answers, helpmates = {}, {}
    for fen, line in zip(fens, out.splitlines()):
        r = json.loads(line)
        for side in ("white", "black"):
            answers[(fen, side)] = r.get(side + "_can_mate")
            helpmates[(fen, side)] = r.get(side + "_helpmate", "")
    return (answers, helpmates), wall, cpu, peak


def summary(name, fens, answers, wall, cpu, peak):
    decided = sum(v is not None for v in answers.values())
    dead = sum(answers.get((f, "white")) is False and answers.get((f, "black")) is False for f in fens)
    return {"tool": name, "positions": len(fens), "wall_seconds": round(wall, 3), "cpu_seconds": round(cpu, 3),
            "positions_per_cpu_second": round(len(fens) / max(cpu, 1e-3), 1), "peak_mib": round(peak / 1024, 1),
            "sides": 2 * len(fens), "sides_decided": decided, "dead_found": dead}


def replays_to_mate(fen, side, line):
    board = chess.Board(fen)
    for uci in line.split():
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != (side == "white")


def conflicts(gperft, helpmates, cha):
    """Sides where one tool proves "cannot mate" and the other shows a
    helpmate; gperft's helpmates replayed with python-chess."""
    cha_no = sorted(k for k in gperft if gperft[k] is True and cha.get(k) is False)
    gperft_no = sorted(k for k in gperft if gperft[k] is False and cha.get(k) is True)
    return {"cha_cannot_mate_but_gperft_helpmate": len(cha_no),
            "of_those_gperft_helpmate_replays_to_mate": sum(replays_to_mate(f, s, helpmates[(f, s)]) for f, s in cha_no),
            "gperft_cannot_mate_but_cha_helpmate": len(gperft_no),
            "examples": ["%s %s" % k for k in (cha_no + gperft_no)[:10]]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, help="cha=PATH to the CHA binary")
    ap.add_argument("--gperft", default=os.path.join(ROOT, "build/gperft"))
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "results/dead_vs_cha.json"))
    args = ap.parse_args()
    name, _, cha = args.peer.partition("=")
    if name != "cha" or not os.access(cha, os.X_OK):
        sys.exit("--peer cha=PATH: give the path of a CHA binary")
    sets = {"cha_test_positions": cha_positions(), "random_games": random_game_positions(2000),
            "pawn_fortresses": fortress_positions()}
    tmp = tempfile.mkdtemp()
    results = {}
    for set_name, fens in sets.items():
        runs = {"cha": [], "gperft": [], "gperft_at_cha_budget": []}
        for _ in range(args.rounds):
            cha_ans, *cost = run_cha(cha, fens, os.path.join(tmp, "cha.txt"))
            runs["cha"].append(summary("CHA 2.6.1 (full)", fens, cha_ans, *cost))
            (g_ans, helpmates), *cost = run_gperft(args.gperft, fens, os.path.join(tmp, "g.txt"), None)
            runs["gperft"].append(summary("gperft (default budget)", fens, g_ans, *cost))
            (e_ans, _), *cost = run_gperft(args.gperft, fens, os.path.join(tmp, "g.txt"), CHA_BUDGET)
            runs["gperft_at_cha_budget"].append(summary("gperft --budget %d" % CHA_BUDGET, fens, e_ans, *cost))
            print(set_name, [r[-1]["cpu_seconds"] for r in runs.values()], file=sys.stderr)
        best = {k: min(v, key=lambda r: r["cpu_seconds"]) for k, v in runs.items()}
        results[set_name] = dict(best, conflicts=conflicts(g_ans, helpmates, cha_ans),
                                 speed_ratio_gperft_over_cha=round(best["cha"]["cpu_seconds"] /
                                                                   max(best["gperft"]["cpu_seconds"], 1e-3), 2),
                                 speed_ratio_at_equal_budget=round(best["cha"]["cpu_seconds"] / max(
                                     best["gperft_at_cha_budget"]["cpu_seconds"], 1e-3), 2))
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    record = {"benchmark": "analyze beside CHA on three position sets, both sides, one thread",
              "commit": commit, "date": time.strftime("%Y-%m-%d"), "machine": "%s, %d threads" % (cpu, os.cpu_count()),
              "load_average_at_start": open("/proc/loadavg").read().strip(), "rounds": args.rounds,
              "peer": {"name": "CHA 2.6.1 (miguel-ambrona/D3-Chess 0adad15, Stockfish 51deae8 as its library)",
                       "options": "full analysis, default limit %d, one line per side" % CHA_BUDGET},
              "note": "best of the rounds by CPU seconds (one process per set and tool, start-up included); a "
                      "conflict is a side one tool proves it cannot mate and the other shows a helpmate for",
              "sets": results}
    with open(args.out, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
