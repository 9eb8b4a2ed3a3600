#!/usr/bin/env python3
"""Distinct positions after ply 9 of the start position (A083276: 9,183,421,888)
on one machine: the CPU engine with its frontiers past the memory budget on
disk (--work-dir) and the last ply's passes journaled.

Runs `perftide unique --depth 9 --json --memory MIB --work-dir DIR --journal
DIR/ply9.journal --progress 60`, timed as a whole process (/usr/bin/time:
wall, CPU, peak resident memory), the used space of DIR's file system sampled
every 5 s (the frontier file is unlinked when made, so only the file system
shows it). A killed run is resumed by running this script again with the
same DIR: the journal keeps the finished passes, DIR/ply9.runs each
process's times. Writes results/research/unique_ply9.json with every class
of every ply, the passes, the time, memory and disk of each process, and
the count against A083276.

Usage: bench/unique_ply9.py [--memory MIB] [--work-dir DIR] [--binary PATH]
  (defaults: 17000 MiB, /var/tmp/perftide-ply9, build/perftide)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

from machine_info import machine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPTH = 9


def a083276(ply):
    with open(os.path.join(ROOT, "tests/data/unique/a083276.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#") and int(parts[0]) == ply:
                return int(parts[1])
    return None


def used_bytes(path):
    return shutil.disk_usage(path).used


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memory", type=int, default=17000, help="perftide unique --memory, MiB")
    ap.add_argument("--work-dir", default="/var/tmp/perftide-ply9", help="frontier file, journal and run log")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build/perftide"))
    a = ap.parse_args()
    os.makedirs(a.work_dir, exist_ok=True)
    journal = os.path.join(a.work_dir, "ply9.journal")
    runs_log = os.path.join(a.work_dir, "ply9.runs")
    out_json = os.path.join(a.work_dir, "ply9.json")
    time_file = os.path.join(a.work_dir, "ply9.time")
    cmd = [a.binary, "unique", "--depth", str(DEPTH), "--json", "--memory", str(a.memory), "--work-dir", a.work_dir,
           "--journal", journal, "--progress", "60"]

    base = used_bytes(a.work_dir)
    peak = [base]
    done = threading.Event()

    def sample():
        while not done.wait(5):
            peak[0] = max(peak[0], used_bytes(a.work_dir))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    print("running:", " ".join(cmd), flush=True)
    with open(out_json, "w") as out:
        status = subprocess.call(["/usr/bin/time", "-f", "%e %U %S %M", "-o", time_file] + cmd, stdout=out)
    done.set()
    sampler.join()
    wall, user, sys_s, rss_kb = open(time_file).read().split()[-4:]
    run = {"wall_s": float(wall), "user_s": float(user), "sys_s": float(sys_s), "peak_rss_mib": int(rss_kb) // 1024,
           "peak_disk_mib": (peak[0] - base) // 2**20, "exit_status": status, "ended": time.strftime("%FT%TZ", time.gmtime())}
    with open(runs_log, "a") as f:
        f.write(json.dumps(run) + "\n")
    if status != 0:
        print(f"perftide exited with {status}; run this script again with the same --work-dir to resume", file=sys.stderr)
        return status

    result = json.load(open(out_json))
    runs = [json.loads(line) for line in open(runs_log) if line.strip()]
    distinct = int(result["plies"][-1]["distinct"])
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    report = {
        "benchmark": "perftide unique --depth 9 from the start position, CPU engine, frontier past the budget on disk",
        "command": " ".join(cmd[1:]).replace(a.work_dir, "DIR"),
        "machine": machine(), "commit": commit, "date": time.strftime("%F", time.gmtime()),
        "a083276": a083276(DEPTH), "distinct": distinct, "matches": distinct == a083276(DEPTH),
        "passes": result["plies"][-1]["passes"], "passes_resumed": result.get("passes_resumed"),
        "processes": runs,
        "wall_s_total": round(sum(r["wall_s"] for r in runs), 1),
        "peak_rss_mib": max(r["peak_rss_mib"] for r in runs),
        "peak_disk_mib": max(r["peak_disk_mib"] for r in runs),
        "plies": result["plies"],
    }
    path = os.path.join(ROOT, "results/research/unique_ply9.json")
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(f"ply 9: {distinct} (A083276 {a083276(DEPTH)}), {report['wall_s_total']} s in {len(runs)} process(es), "
          f"peak {report['peak_rss_mib']} MiB, disk {report['peak_disk_mib']} MiB; wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
