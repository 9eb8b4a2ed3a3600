#!/usr/bin/env python3
"""perftide analyze side by side with Ambrona's unwinnability solvers, each
given by path (built by hand, outside the repository), in results/dead_vs_cha.json.

--peer cha=PATH: CHA 2.6.1 (the C++ Chess Unwinnability Analyzer) on three
position sets: CHA's own test positions (tests/data/dead), positions of
random games, and generated pawn fortresses (bench/fortress_positions.py).
Both answer both sides of every position on one thread; perftide runs at its
default budget and at CHA's (500,000 nodes), the runs alternating. Records
positions per second, CPU seconds, peak memory, sides decided, and every
side where one tool proves "cannot mate" and the other shows a helpmate (an
unsound answer of one of them) under "sets".

--peer chasolver=PATH: chasolver 3.x (the Rust rewrite), PATH its
examples/analyzer binary, on the 65,536 Lichess positions of
tests/data/dead/chasolver-lichess.txt, both sides, one thread: chasolver's
full search and fast check (--fast) beside perftide analyze's full search and
--fast, the four runs alternating, best of --lichess-rounds by CPU seconds
(user + system of the child, start-up included), each run started only once
the 1-minute load is at most --max-load. Records CPU seconds, positions per
CPU second, peak resident memory, wrong answers (against the file's verdicts
and against the other tool), undecided sides, helpmate lengths (each tool's
helpmates replayed with python-chess), and the issue's goals, under
"chasolver_lichess".

A peer not given keeps what the file already holds for it.

Usage: dead_vs_cha.py --peer cha=PATH [--peer chasolver=PATH] [--peer-info KEY=TEXT] [--perftide build/perftide]
                      [--rounds N] [--lichess-rounds N] [--max-load L] [--max-wait S] [--no-replay]
                      [--lichess-limit N] [--note TEXT] [--out FILE]
Needs python-chess (build/py, made by .ci/setup).
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import chess

from machine_info import cpu_model

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


def run_perftide(perftide, fens, path, budget):
    with open(path, "w") as f:
        f.write("".join(fen + "\n" for fen in fens))
    cmd = [perftide, "analyze", "--json", "--threads", "1", "--file", path] + (["--budget", str(budget)] if budget else [])
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


def conflicts(perftide, helpmates, cha):
    """Sides where one tool proves "cannot mate" and the other shows a
    helpmate; perftide's helpmates replayed with python-chess."""
    cha_no = sorted(k for k in perftide if perftide[k] is True and cha.get(k) is False)
    perftide_no = sorted(k for k in perftide if perftide[k] is False and cha.get(k) is True)
    return {"cha_cannot_mate_but_perftide_helpmate": len(cha_no),
            "of_those_perftide_helpmate_replays_to_mate": sum(replays_to_mate(f, s, helpmates[(f, s)]) for f, s in cha_no),
            "perftide_cannot_mate_but_cha_helpmate": len(perftide_no),
            "examples": ["%s %s" % k for k in (cha_no + perftide_no)[:10]]}


LICHESS = os.path.join(ROOT, "tests/data/dead/chasolver-lichess.txt")


def lichess_positions():
    """The file's verdicts ("WB", "W-", "-B", "--") and FENs, in order."""
    labels, fens = [], []
    with open(LICHESS) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                labels.append(line[:2])
                fens.append(line[3:].strip())
    return labels, fens


def load_1min():
    return float(open("/proc/loadavg").read().split()[0])


def wait_for_quiet(max_load, max_wait):
    """Sleeps in minutes until the 1-minute load is at most max_load (at most
    max_wait seconds); returns the load the run starts at."""
    waited = 0
    while load_1min() > max_load and waited < max_wait:
        print("load %.2f > %.2f: waiting" % (load_1min(), max_load), file=sys.stderr)
        time.sleep(60)
        waited += 60
    return load_1min()


def rusage_run(cmd, stdin_path, stdout_path):
    """Runs cmd alone (stdin and stdout files) under /usr/bin/time: CPU
    seconds (user + system from wait4, which counts the child with the
    process it waited for; time itself adds about half a millisecond), peak
    resident KiB (time's %M: a process spawned from Python would report
    Python's own peak, which the kernel keeps across exec), wall seconds,
    standard error."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tm, open(stdin_path) as fin, \
            open(stdout_path, "w") as fout:
        start = time.monotonic()
        p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", tm.name] + cmd, stdin=fin, stdout=fout,
                             stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
        code = os.waitstatus_to_exitcode(status)
        peak = tm.read().strip().splitlines()
    if code != 0:
        sys.exit("%s failed (%d): %s" % (cmd, code, err[-500:]))
    return ru.ru_utime + ru.ru_stime, int(peak[-1]), wall, err.decode(errors="replace")


def read_chasolver(path, fens):
    """chasolver's analyzer prints "winnable moves M,M,... LINE",
    "unwinnable LINE" or "undetermined LINE" for each input line "FEN side"
    (--fast: only the unwinnable ones). Per side: True (a helpmate shown),
    False (cannot mate), None; and the helpmates as UCI lists."""
    by_line = {}
    with open(path) as f:
        for line in f:
            word, _, rest = line.rstrip("\n").partition(" ")
            if word == "winnable":
                _, moves, rest = rest.split(" ", 2)
                by_line[rest] = (True, moves.split(","))
            elif word == "unwinnable":
                by_line[rest] = (False, None)
            elif word == "undetermined":
                by_line[rest] = (None, None)
    answers, helpmates = [], []
    for fen in fens:
        for side in ("white", "black"):
            v, moves = by_line.get("%s %s" % (fen, side), (None, None))
            answers.append(v)
            helpmates.append(moves)
    return answers, helpmates


def read_perftide(path, fens):
    """perftide analyze --json: one row per position; per side (white, black
    of each position in turn) *_can_mate and *_helpmate."""
    answers, helpmates = [], []
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    if len(rows) != len(fens):
        sys.exit("perftide wrote %d rows for %d positions" % (len(rows), len(fens)))
    for fen, row in zip(fens, rows):
        if row["fen"] != fen:
            sys.exit("perftide row %s is %s, not %s" % (row.get("line"), row["fen"], fen))
        for side in ("white", "black"):
            answers.append(row.get(side + "_can_mate"))
            line = row.get(side + "_helpmate")
            helpmates.append(line.split() if line else None)
    return answers, helpmates


def replay_fails(fens, answers, helpmates):
    """Sides whose "can mate" comes with a helpmate that python-chess does
    not replay to a mate by that side (an illegal move, or no mate at the
    end), and sides said to mate without a line."""
    bad = []
    for i, v in enumerate(answers):
        if v is not True:
            continue
        fen, side = fens[i // 2], ("white", "black")[i % 2]
        moves = helpmates[i]
        if not moves:
            bad.append(i)
            continue
        board = chess.Board(fen)
        try:
            for uci in moves:
                board.push_uci(uci)
        except ValueError:
            bad.append(i)
            continue
        if not (board.is_checkmate() and board.turn != (side == "white")):
            bad.append(i)
    return bad


def lichess_score(labels, answers, other=None):
    """Against the file's verdicts (and the other tool's answers, where it
    answered): wrong sides, undecided sides, cannot-mate sides found."""
    wrong = undecided = dead_found = against_other = 0
    examples = []
    for i, v in enumerate(answers):
        can = labels[i // 2][i % 2] != "-"
        if v is None:
            undecided += 1
            continue
        if v != can:
            wrong += 1
            examples.append(i)
        dead_found += v is False and not can
        if other is not None and other[i] is not None and other[i] != v:
            against_other += 1
    return {"sides": len(answers), "wrong_against_file": wrong, "undecided": undecided,
            "cannot_mate_found": dead_found,
            "cannot_mate_sides_in_file": sum((l[0] == "-") + (l[1] == "-") for l in labels),
            "disagreeing_with_other_tool": against_other, "wrong_examples": examples[:10]}


def run_chasolver_lichess(args, chasolver, perftide):
    labels, fens = lichess_positions()
    if args.lichess_limit:
        labels, fens = labels[:args.lichess_limit], fens[:args.lichess_limit]
    tmp = tempfile.mkdtemp()
    cha_in = os.path.join(tmp, "lichess.cha")
    g_in = os.path.join(tmp, "lichess.fens")
    with open(cha_in, "w") as f:
        for fen in fens:
            f.write("%s white\n%s black\n" % (fen, fen))
    with open(g_in, "w") as f:
        f.write("".join(fen + "\n" for fen in fens))
    perftide_base = [perftide, "analyze", "--json", "--threads", "1", "--file", g_in]
    tools = {"chasolver_full": ([chasolver], cha_in, read_chasolver),
             "chasolver_fast": ([chasolver, "--fast"], cha_in, read_chasolver),
             "perftide_full": (perftide_base, os.devnull, read_perftide),
             "perftide_fast": (perftide_base + ["--fast"], os.devnull, read_perftide)}
    version = ""
    runs = {k: [] for k in tools}
    outputs = {}
    load_at_start = open("/proc/loadavg").read().strip()
    for r in range(args.lichess_rounds):
        for key, (cmd, stdin_path, _) in tools.items():
            load = wait_for_quiet(args.max_load, args.max_wait)
            out = os.path.join(tmp, key + ".out")
            cpu, peak, wall, err = rusage_run(cmd, stdin_path, out)
            if key.startswith("chasolver") and not version:
                version = err.splitlines()[0] if err else ""
            runs[key].append({"cpu_seconds": round(cpu, 3), "wall_seconds": round(wall, 3), "peak_rss_kib": peak,
                              "load_1min_before": load})
            outputs[key] = out
            print("round %d %s: %.3f CPU s, %d KiB, load %.2f" % (r + 1, key, cpu, peak, load), file=sys.stderr)
    parsed = {k: tools[k][2](outputs[k], fens) for k in tools}
    # Start-up alone: one position (both sides), best of 3.
    startup = {}
    one_cha, one_g = os.path.join(tmp, "one.cha"), os.path.join(tmp, "one.fens")
    open(one_cha, "w").write("%s white\n%s black\n" % (fens[0], fens[0]))
    open(one_g, "w").write(fens[0] + "\n")
    for key, (cmd, stdin_path, _) in tools.items():
        if key.startswith("perftide"):
            cmd = [one_g if c == g_in else c for c in cmd]
        else:
            stdin_path = one_cha
        startup[key] = min(rusage_run(cmd, stdin_path, os.devnull)[0] for _ in range(3))
    shutil.rmtree(tmp)
    other = {"chasolver_full": "perftide_full", "chasolver_fast": "perftide_fast",
             "perftide_full": "chasolver_full", "perftide_fast": "chasolver_fast"}
    modes = {}
    n = len(fens)
    for key in tools:
        best = min(runs[key], key=lambda x: x["cpu_seconds"])
        answers, helpmates = parsed[key]
        score = lichess_score(labels, answers, parsed[other[key]][0])
        if not args.no_replay:
            bad = replay_fails(fens, answers, helpmates)
            score["helpmates_shown"] = sum(v is True for v in answers)
            score["helpmates_not_replaying_to_mate"] = len(bad)
            score["wrong_examples"] += bad[:10]
        score["wrong_examples"] = ["%s %s" % (fens[i // 2], ("white", "black")[i % 2])
                                   for i in score["wrong_examples"]]
        modes[key] = dict({"command": " ".join(os.path.basename(c) if c in (chasolver, perftide) else
                                               ("FILE" if c == g_in else c) for c in tools[key][0]) +
                                      (" < FEN-side lines" if key.startswith("chasolver") else ""),
                           "positions": n, "cpu_seconds": best["cpu_seconds"],
                           "positions_per_cpu_second": round(n / max(best["cpu_seconds"], 1e-3), 1),
                           "us_per_position": round(1e6 * best["cpu_seconds"] / n, 2),
                           "peak_rss_kib": best["peak_rss_kib"],
                           "peak_rss_kib_max_of_rounds": max(x["peak_rss_kib"] for x in runs[key]),
                           "startup_cpu_seconds_one_position": round(startup[key], 3),
                           "rounds": runs[key]}, **score)
    # Helpmate lengths (plies) on the sides where both full searches show one.
    g_h, c_h = parsed["perftide_full"][1], parsed["chasolver_full"][1]
    both = [i for i in range(2 * n) if g_h[i] and c_h[i]]
    g_len = [len(g_h[i]) for i in both]
    c_len = [len(c_h[i]) for i in both]
    helpmates = {"sides_with_both": len(both),
                 "perftide_median_plies": statistics.median(g_len) if both else None,
                 "chasolver_median_plies": statistics.median(c_len) if both else None,
                 "perftide_mean_plies": round(statistics.mean(g_len), 2) if both else None,
                 "chasolver_mean_plies": round(statistics.mean(c_len), 2) if both else None,
                 "perftide_max_plies": max(g_len, default=None), "chasolver_max_plies": max(c_len, default=None),
                 "perftide_shorter": sum(a < b for a, b in zip(g_len, c_len)),
                 "equal": sum(a == b for a, b in zip(g_len, c_len)),
                 "perftide_longer": sum(a > b for a, b in zip(g_len, c_len))}
    gf, gq, cf, cq = modes["perftide_full"], modes["perftide_fast"], modes["chasolver_full"], modes["chasolver_fast"]
    full_ratio = round(cf["cpu_seconds"] / max(gf["cpu_seconds"], 1e-3), 2)
    fast_ratio = round(cq["cpu_seconds"] / max(gq["cpu_seconds"], 1e-3), 2)

    def wrong(m):
        return m["wrong_against_file"] + m.get("helpmates_not_replaying_to_mate", 0)

    goals = {
        "full_at_least_1.5x_chasolver_full_0_wrong_0_undecided": {
            "speed_ratio_chasolver_cpu_over_perftide_cpu": full_ratio, "perftide_wrong": wrong(gf),
            "perftide_undecided": gf["undecided"],
            "met": full_ratio >= 1.5 and wrong(gf) == 0 and gf["undecided"] == 0},
        "fast_at_least_as_fast_as_chasolver_fast_0_wrong": {
            "speed_ratio_chasolver_cpu_over_perftide_cpu": fast_ratio, "perftide_wrong": wrong(gq),
            "met": fast_ratio >= 1.0 and wrong(gq) == 0},
        "peak_memory_at_most_2x_chasolver": {
            "full_ratio": round(gf["peak_rss_kib"] / cf["peak_rss_kib"], 2),
            "fast_ratio": round(gq["peak_rss_kib"] / cq["peak_rss_kib"], 2),
            "met": gf["peak_rss_kib"] <= 2 * cf["peak_rss_kib"] and gq["peak_rss_kib"] <= 2 * cq["peak_rss_kib"]},
        "helpmates_no_longer_than_chasolver_on_the_median": {
            "perftide_median_plies": helpmates["perftide_median_plies"],
            "chasolver_median_plies": helpmates["chasolver_median_plies"],
            "met": bool(both) and helpmates["perftide_median_plies"] <= helpmates["chasolver_median_plies"]},
    }
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "host", "common",
                            "CMakeLists.txt"], capture_output=True, text=True).stdout.strip()
    return {"benchmark": "analyze beside chasolver on the 65,536 Lichess positions of "
                         "tests/data/dead/chasolver-lichess.txt, both sides (131,072), one thread",
            "perftide_commit": commit, "perftide_tree_has_uncommitted_source_changes": bool(dirty),
            "date": time.strftime("%Y-%m-%d %H:%M %Z"), "machine": "%s, %d threads" % (cpu_model(), os.cpu_count()),
            "load_average_at_start": load_at_start, "rounds": args.lichess_rounds, "max_load": args.max_load,
            "peer": dict({"name": version or "chasolver", "binary": "examples/analyzer"},
                         **dict(kv.partition("=")[::2] for kv in args.peer_info)),
            "timing": "CPU seconds are user + system of the one child process (wait4 on /usr/bin/time, which adds "
                      "about 0.5 ms), start-up, reading and writing included; best of the rounds, the four runs "
                      "alternating in each round, each started once the 1-minute load was at most max_load (its "
                      "load beside it); peak_rss_kib is that run's maximum resident set (/usr/bin/time's %M)",
            "modes": modes, "helpmates_where_both_show_one": helpmates, "goals": goals}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", action="append", required=True,
                    help="cha=PATH (CHA 2.6.1) or chasolver=PATH (chasolver's examples/analyzer); repeatable")
    ap.add_argument("--peer-info", action="append", default=[],
                    help="KEY=TEXT recorded beside chasolver's name (its commit, how it was built)")
    ap.add_argument("--perftide", default=os.path.join(ROOT, "build/perftide"))
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the CHA 2.6.1 sets")
    ap.add_argument("--lichess-rounds", type=int, default=3, help="rounds of the chasolver runs")
    ap.add_argument("--max-load", type=float, default=1.2, help="1-minute load above which a chasolver-set run waits")
    ap.add_argument("--max-wait", type=int, default=900, help="seconds a run waits for the load at most")
    ap.add_argument("--no-replay", action="store_true", help="do not replay the helpmates with python-chess")
    ap.add_argument("--lichess-limit", type=int, help="only the first N Lichess positions (a trial run)")
    ap.add_argument("--note", help="text recorded as chasolver_lichess.note (default: the file's)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results/dead_vs_cha.json"))
    args = ap.parse_args()
    peers = {}
    for p in args.peer:
        name, _, path = p.partition("=")
        if name not in ("cha", "chasolver") or not os.access(path, os.X_OK):
            sys.exit("--peer cha=PATH or chasolver=PATH: give the path of the peer's binary")
        peers[name] = path
    old = {}
    if os.path.exists(args.out):
        with open(args.out) as f:
            old = json.load(f)
    record = dict(old)
    if "cha" in peers:
        record.update(run_cha_sets(args, peers["cha"]))
        record.pop("cha_sets_note", None)
    elif "sets" in old:
        record["cha_sets_note"] = ("CHA 2.6.1 was not run again on %s (not at hand): 'sets' and the top-level "
                                   "commit, date, machine, load and rounds are that earlier run's, kept as they "
                                   "were" % time.strftime("%Y-%m-%d"))
    if "chasolver" in peers:
        record["chasolver_lichess"] = dict(run_chasolver_lichess(args, peers["chasolver"], args.perftide),
                                           note=args.note if args.note is not None else
                                           old.get("chasolver_lichess", {}).get("note", ""))
    with open(args.out, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(json.dumps(record, indent=1))


def run_cha_sets(args, cha):
    sets = {"cha_test_positions": cha_positions(), "random_games": random_game_positions(2000),
            "pawn_fortresses": fortress_positions()}
    tmp = tempfile.mkdtemp()
    results = {}
    for set_name, fens in sets.items():
        runs = {"cha": [], "perftide": [], "perftide_at_cha_budget": []}
        for _ in range(args.rounds):
            cha_ans, *cost = run_cha(cha, fens, os.path.join(tmp, "cha.txt"))
            runs["cha"].append(summary("CHA 2.6.1 (full)", fens, cha_ans, *cost))
            (g_ans, helpmates), *cost = run_perftide(args.perftide, fens, os.path.join(tmp, "g.txt"), None)
            runs["perftide"].append(summary("perftide (default budget)", fens, g_ans, *cost))
            (e_ans, _), *cost = run_perftide(args.perftide, fens, os.path.join(tmp, "g.txt"), CHA_BUDGET)
            runs["perftide_at_cha_budget"].append(summary("perftide --budget %d" % CHA_BUDGET, fens, e_ans, *cost))
            print(set_name, [r[-1]["cpu_seconds"] for r in runs.values()], file=sys.stderr)
        best = {k: min(v, key=lambda r: r["cpu_seconds"]) for k, v in runs.items()}
        results[set_name] = dict(best, conflicts=conflicts(g_ans, helpmates, cha_ans),
                                 speed_ratio_perftide_over_cha=round(best["cha"]["cpu_seconds"] /
                                                                   max(best["perftide"]["cpu_seconds"], 1e-3), 2),
                                 speed_ratio_at_equal_budget=round(best["cha"]["cpu_seconds"] / max(
                                     best["perftide_at_cha_budget"]["cpu_seconds"], 1e-3), 2))
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    cpu = cpu_model()
    return {"benchmark": "analyze beside CHA on three position sets, both sides, one thread",
            "commit": commit, "date": time.strftime("%Y-%m-%d"), "machine": "%s, %d threads" % (cpu, os.cpu_count()),
            "load_average_at_start": open("/proc/loadavg").read().strip(), "rounds": args.rounds,
            "peer": {"name": "CHA 2.6.1 (miguel-ambrona/D3-Chess 0adad15, Stockfish 51deae8 as its library)",
                     "options": "full analysis, default limit %d, one line per side" % CHA_BUDGET},
            "note": "best of the rounds by CPU seconds (one process per set and tool, start-up included); a "
                    "conflict is a side one tool proves it cannot mate and the other shows a helpmate for",
            "sets": results}


if __name__ == "__main__":
    main()
