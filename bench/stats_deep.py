#!/usr/bin/env python3
"""Deep perft statistics against the Grand Chess Tree's published rows.

Runs `perftide perft --stats` on the deep engine (table, work units, a journal
per case) for each case, and writes results/stats_deep.json: per case the
machine, each sitting's commit, wall and CPU seconds and peak memory (and
the units in the journal after it), the table size, split and units, and
every column of every ply beside GCT's value.

A case whose journal holds finished units resumes from it (a run too long
for one sitting is started again with the same --journal-dir); each sitting
is recorded, and a sitting that is interrupted (Ctrl-C, a signal) is saved
as such before the script stops. A case without its journal starts again
and replaces its old record.

Usage:
  bench/stats_deep.py [--perftide build/perftide] [--threads 2]
                      [--journal-dir build/journals] [--out results/stats_deep.json]
                      CASE...
  CASE is NAME:DEPTH with NAME one of start, kiwipete, position6 (GCT's
  positions 0, 1, 2), e.g. start:9 kiwipete:7 position6:7.
"""
import argparse
import datetime
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gct_row_check import SKIP  # noqa: E402  (the columns that are not counts)
from machine_info import machine  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GCT = {
    "start": "tests/data/perft/grandchesstree_p0_results.json",
    "kiwipete": "tests/data/perft/grandchesstree_p1_results.json",
    "position6": "tests/data/perft/grandchesstree_p2_results.json",
}


def commit():
    try:
        sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return sha + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def interrupted(signum, frame):
    """A SIGTERM (`kill`, the end of a session) stops a sitting as Ctrl-C does: saved, then the script ends."""
    raise KeyboardInterrupt


def sitting(args, name, depth, fen, journal):
    cmd = [args.perftide, "perft", "--stats", "--depth", str(depth), "--fen", fen, "--json", "--quiet",
           "--threads", str(args.threads), "--journal", journal] + args.extra
    timing = journal + ".time"
    ran = commit()
    start = time.monotonic()
    # A group of its own: an interrupt reaches perftide (which saves its journal
    # and exits) as well as /usr/bin/time (which waits for it and reports).
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", "-o", timing] + cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate()
    except KeyboardInterrupt:
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate()
    wall = time.monotonic() - start
    user = system = peak_kb = 0.0
    try:
        with open(timing) as f:
            user, system, peak_kb = (float(x) for x in f.read().split()[-3:])
        os.remove(timing)
    except (OSError, ValueError):
        pass
    record = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": ran,
        "command": " ".join(cmd[1:]),
        "exit": proc.returncode,
        "wall_s": round(wall, 2),
        "cpu_s": round(user + system, 2),
        "peak_rss_mib": round(peak_kb / 1024, 1),
    }
    try:
        with open(journal) as f:
            record["units_in_journal"] = sum(line.startswith("unit ") for line in f)
    except OSError:
        pass
    if proc.returncode != 0:
        record["stderr"] = err.strip()[-400:]
        return record, None
    return record, json.loads([line for line in out.splitlines() if line.startswith("{")][-1])


def compare(result, gct_file, depth):
    with open(os.path.join(ROOT, gct_file)) as f:
        published = {r["depth"]: r for r in json.load(f)["results"]}
    rows, wrong = [], 0
    for got in result["stats"]:
        want = published.get(got["depth"])
        if want is None:
            rows.append({"depth": got["depth"], "published": False})
            continue
        cells = {}
        for key in want:
            if key in SKIP or key not in got:
                continue
            equal = int(got[key]) == int(want[key])
            wrong += not equal
            cells[key] = {"perftide": int(got[key]), "gct": int(want[key]), "equal": equal}
        rows.append({"depth": got["depth"], "columns": cells})
    return rows, wrong


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perftide", default=os.path.join(ROOT, "build", "perftide"))
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--journal-dir", default=os.path.join(ROOT, "build", "journals"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "stats_deep.json"))
    parser.add_argument("--extra", nargs=argparse.REMAINDER, default=[], help="further perft options, last")
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, interrupted)

    doc = {"cases": {}}
    if os.path.exists(args.out):
        with open(args.out) as f:
            doc = json.load(f)
    doc.update({"benchmark": "perft --stats on the deep engine against the Grand Chess Tree"})
    os.makedirs(args.journal_dir, exist_ok=True)
    status = 0
    for case in args.cases:
        name, _, depth_text = case.partition(":")
        if name not in GCT or not depth_text.isdigit():
            sys.exit(f"stats_deep.py: bad case '{case}' (want NAME:DEPTH, NAME one of {', '.join(GCT)})")
        depth = int(depth_text)
        with open(os.path.join(ROOT, GCT[name])) as f:
            fen = json.load(f)["position_fen"]
        key = f"{name} d{depth}"
        journal = os.path.join(args.journal_dir, f"stats_{name}_d{depth}.journal")
        # Sittings add up only while a journal carries the run over: without
        # one the case starts again, and its old record is replaced.
        entry = doc["cases"].get(key) if os.path.exists(journal) else None
        entry = entry or {"fen": fen, "depth": depth, "sittings": []}
        entry["machine"] = machine()
        print(f"{key}: running (journal {journal})", flush=True)
        record, result = sitting(args, name, depth, fen, journal)
        entry["sittings"].append(record)
        if result is not None:
            rows, wrong = compare(result, GCT[name], depth)
            entry.update({
                "wall_s_total": round(sum(s["wall_s"] for s in entry["sittings"]), 2),
                "cpu_s_total": round(sum(s["cpu_s"] for s in entry["sittings"]), 2),
                "peak_rss_mib": max(s["peak_rss_mib"] for s in entry["sittings"]),
                "hash_mb": result.get("hash_mb"), "split": result.get("split"), "units": result.get("units"),
                "units_resumed_last_sitting": result.get("units_resumed"),
                "columns_compared": sum(len(r.get("columns", {})) for r in rows), "columns_wrong": wrong,
                "rows": rows,
            })
            print(f"{key}: {entry['columns_compared']} columns against GCT, {wrong} wrong, "
                  f"{record['wall_s']} s wall, {record['cpu_s']} s CPU, {record['peak_rss_mib']} MiB", flush=True)
            status |= wrong != 0
        else:
            print(f"{key}: exit {record['exit']}: {record.get('stderr', '')}", flush=True)
            status = 1
        doc["cases"][key] = entry
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        if record["exit"] < 0 or record["exit"] in (130, 143):
            break  # interrupted: the journal keeps the finished units
    return status


if __name__ == "__main__":
    sys.exit(main())
