#!/usr/bin/env python3
"""Feeds a UCI engine the project's perft suites case by case, the way an
outside checker does: one engine process, for every (position, depth)
`position fen ...` then `go perft D`, the answer read until `Nodes searched:`
under a per-case timeout, the divide parsed and checked (its lines must sum
to the total, and the total must equal the suite's count). Reports failures,
timeouts and cases per second, and writes them as JSON.

Usage:
  bench/uci_suite_check.py [--engine "build/perftide uci"] [--max-depth 5]
      [--max-nodes 2e7] [--timeout 30] [--json results/uci_suite_check.json]
      [SUITE ...]   (default: every suite in tests/data/perft)

Suites: EPD (`FEN ;D1 20 ;D2 400`) and python-chess's id/epd/perft blocks.
Chess960 suites (names containing 960, fischer or dfrc, or X-FEN castling
letters) are checked with UCI_Chess960 on. A case the engine does not
answer in time is a timeout; the engine is then restarted for the next case.
Exit status: 0 when every case passed, 1 otherwise.
"""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time

from uci_process import UciProcess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODES = re.compile(r"^Nodes searched: (\d+)$")
DIVIDE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?): (\d+)$")


def read_suite(path):
    """(fen, {depth: count}, chess960) for every entry of an EPD or .perft file."""
    name = os.path.basename(path).lower()
    c960_file = any(k in name for k in ("960", "fischer", "dfrc"))
    cases = []
    fen = None
    counts = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("id "):
                continue
            if line.startswith("epd "):
                if fen:
                    cases.append((fen, counts))
                fen, counts = line[4:].strip(), {}
                continue
            if line.startswith("perft "):
                _, d, n = line.split()
                counts[int(d)] = int(n)
                continue
            if fen:
                cases.append((fen, counts))
                fen, counts = None, {}
            parts = line.split(";")
            body = parts[0].strip()
            ops = {}
            for op in parts[1:]:
                m = re.match(r"\s*D(\d+)\s+(\d+)", op)
                if m:
                    ops[int(m.group(1))] = int(m.group(2))
            if ops:
                cases.append((body, ops))
    if fen:
        cases.append((fen, counts))
    out = []
    for fen, counts in cases:
        castling = fen.split()[2] if len(fen.split()) > 2 else "-"
        xfen = any(c not in "KQkq-" for c in castling)
        out.append((fen, counts, c960_file or xfen))
    return out


class Engine(UciProcess):
    """The engine under check, with its UCI_Chess960 option as last set."""

    def __init__(self, command):
        super().__init__(command)
        self.chess960 = None

    def set_chess960(self, on):
        if self.chess960 == on:
            return
        self.send(f"setoption name UCI_Chess960 value {'true' if on else 'false'}")
        self.send("isready")
        self.wait_for(lambda l: l == "readyok", 30)
        self.chess960 = on


def check_case(engine, fen, depth, expected, timeout):
    """'pass', 'fail' with a reason, or 'timeout'."""
    engine.send(f"position fen {fen}")
    engine.send(f"go perft {depth}")
    lines = engine.wait_for(lambda l: l.startswith("Nodes searched:"), timeout)
    if lines is None:
        return "timeout", "no 'Nodes searched:' within the timeout"
    m = NODES.match(lines[-1])
    if not m:
        info = [l for l in lines if l.startswith("info string")]
        return "fail", f"no count: {lines[-1]!r} {info[-1] if info else ''}".strip()
    total = int(m.group(1))
    divide = {}
    for l in lines:
        d = DIVIDE.match(l)
        if d:
            divide[d.group(1)] = int(d.group(2))
    if total != expected:
        return "fail", f"total {total}, expected {expected}"
    if sum(divide.values()) != total:
        return "fail", f"divide sums to {sum(divide.values())}, total {total}"
    return "pass", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="*")
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "perftide") + " uci")
    ap.add_argument("--max-depth", type=int, default=5)
    ap.add_argument("--max-nodes", type=float, default=2e7)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--json", default=None, help="write the report here")
    a = ap.parse_args()
    suites = a.suites or sorted(
        os.path.join(ROOT, "tests", "data", "perft", f) for f in os.listdir(os.path.join(ROOT, "tests", "data", "perft"))
        if f.endswith((".epd", ".perft")))
    engine = Engine(a.engine)
    report = {"benchmark": "perft suites through a UCI engine's go perft, case by case, divides checked",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "engine": a.engine, "machine": {"cpu": platform.processor() or platform.machine(),
                                              "cores": os.cpu_count()},
              "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                       text=True).stdout.strip(),
              "max_depth": a.max_depth, "max_nodes": a.max_nodes, "timeout_s": a.timeout, "suites": {}}
    failures = 0
    start_all = time.monotonic()
    cases_all = 0
    for path in suites:
        name = os.path.relpath(path, ROOT)
        row = {"cases": 0, "passed": 0, "failed": 0, "timeouts": 0, "nodes": 0, "seconds": 0.0, "failures": []}
        start = time.monotonic()
        for fen, counts, c960 in read_suite(path):
            for depth, expected in sorted(counts.items()):
                if depth > a.max_depth or expected > a.max_nodes:
                    continue
                engine.set_chess960(c960)
                verdict, why = check_case(engine, fen, depth, expected, a.timeout)
                row["cases"] += 1
                if verdict == "pass":
                    row["passed"] += 1
                    row["nodes"] += expected
                    continue
                row["timeouts" if verdict == "timeout" else "failed"] += 1
                row["failures"].append({"fen": fen, "depth": depth, "verdict": verdict, "why": why})
                if verdict == "timeout":  # the engine may still be counting: start a fresh one
                    engine.proc.kill()
                    engine = Engine(a.engine)
        row["seconds"] = round(time.monotonic() - start, 3)
        row["cases_per_s"] = round(row["cases"] / row["seconds"], 1) if row["seconds"] else None
        report["suites"][name] = row
        failures += row["failed"] + row["timeouts"]
        cases_all += row["cases"]
        print(f"{name}: {row['cases']} cases, {row['passed']} passed, {row['failed']} failed, "
              f"{row['timeouts']} timeouts, {row['seconds']} s ({row['cases_per_s']} cases/s)")
        for f in row["failures"][:5]:
            print(f"  {f['verdict']}: {f['fen']} depth {f['depth']}: {f['why']}")
    engine.close()
    total_s = time.monotonic() - start_all
    report["total"] = {"cases": cases_all, "failures": failures, "seconds": round(total_s, 3),
                       "cases_per_s": round(cases_all / total_s, 1) if total_s else None}
    print(f"total: {cases_all} cases, {failures} failed or timed out, {total_s:.1f} s")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
