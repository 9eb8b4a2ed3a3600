#!/usr/bin/env python3
"""Runs bench/device_check.sh in its host mode against a build's binaries and
checks what it leaves in $OUT, as a device call would return it:

1. a whole run: device_check.json parses, is complete, lists every step with
   status ok or skipped (none failed), and the exit status is 0; $OUT holds
   the three files, at most 8 files in all and none more than two folders
   down. A stand-in compute-sanitizer (memcheck runs the command, racecheck
   says it cannot attach) checks that the sanitizer steps run their commands
   and that a sanitizer that cannot attach is "skipped", not failed.
2. a run ended with SIGTERM a second into its sanitizer steps (a stand-in
   sanitizer that sleeps makes sure it is still running then): the JSON still parses, is
   marked incomplete and ended by TERM, lists the steps finished so far and
   the one that ran as interrupted, and OUT holds the same three files.

Usage: check_device_script.py DEVICE_CHECK_SH BUILD_DIR
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

FILES = {"device_check.json", "device_check_logs.tar.gz", "device_check_summary.txt"}
# Every step the host mode runs, in order (the build steps are skipped there).
STEPS = ["info", "configure", "build", "smoke", "per_call", "raw_start_perft5", "raw_kiwipete_perft4",
         "deep_perft6", "stats_perft5", "unique_ply5", "gpu_tests"] + [
    f"{tool}_{case}" for tool in ("memcheck", "racecheck") for case in ("small_arena", "dedup", "tables", "stats_tables")]

FAKE_SANITIZER = """#!/bin/sh
# A stand-in compute-sanitizer: memcheck runs the command, racecheck cannot attach.
tool=""
while [ $# -gt 0 ]; do
  case $1 in
    --tool) tool=$2; shift 2 ;;
    --error-exitcode) shift 2 ;;
    *) break ;;
  esac
done
if [ "$tool" = racecheck ]; then
  echo "========= Error: Target application unable to attach (stand-in)"
  exit 1
fi
"$@"
rc=$?
echo "========= ERROR SUMMARY: 0 errors"
exit $rc
"""
SLOW_SANITIZER = """#!/bin/sh
# A stand-in compute-sanitizer that takes a minute: the check is ended meanwhile.
sleep 60
"""

problems = []


def check(cond, what):
    if not cond:
        problems.append(what)
        print("FAIL:", what)


def out_files(out):
    """Every file under OUT, as paths relative to it."""
    found = []
    for dirpath, _, files in os.walk(out):
        for f in files:
            found.append(os.path.relpath(os.path.join(dirpath, f), out))
    return found


def check_out_folder(out, label):
    files = out_files(out)
    check(len(files) <= 8, f"{label}: {len(files)} files in OUT (at most 8 come back): {files}")
    deep = [f for f in files if f.count(os.sep) > 2]
    check(not deep, f"{label}: files more than two folders down: {deep}")
    check(set(files) == FILES, f"{label}: OUT holds {sorted(files)}, not {sorted(FILES)}")
    for f in files:
        size = os.path.getsize(os.path.join(out, f))
        check(size <= 16 << 20, f"{label}: {f} is {size} bytes (16 MiB come back)")


def load(out, label):
    try:
        with open(os.path.join(out, "device_check.json")) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{label}: device_check.json does not parse: {e}")
        return None


def run_env(script, build, out, tmp):
    env = dict(os.environ, OUT=out, DEVICE_CHECK_HOST="1", DEVICE_CHECK_SKIP_BUILD="1", DEVICE_CHECK_BUILD=build,
               TMPDIR=tmp)
    env.pop("DEVICE_CHECK_BUDGET", None)
    return env


def stand_in(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def whole_run(script, build, tmp):
    out = os.path.join(tmp, "out_whole")
    os.mkdir(out)
    env = run_env(script, build, out, tmp)
    env["DEVICE_CHECK_SANITIZER"] = stand_in(tmp, "compute-sanitizer", FAKE_SANITIZER)
    t0 = time.time()
    p = subprocess.run(["bash", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=280)
    print(p.stdout[-3000:])
    print(f"whole run: exit status {p.returncode} in {time.time() - t0:.1f} s")
    check(p.returncode == 0, f"whole run: exit status {p.returncode}")
    check_out_folder(out, "whole run")
    d = load(out, "whole run")
    if d is None:
        return
    check(d.get("mode") == "host", f"whole run: mode {d.get('mode')}")
    check(d.get("complete") is True and d.get("ended_by") == "finished", "whole run: the record is not closed")
    check(d.get("ok") is True and d.get("failures") == 0, f"whole run: ok {d.get('ok')}, failures {d.get('failures')}")
    names = [s["name"] for s in d["steps"]]
    check(names == STEPS, f"whole run: steps {names}, want {STEPS}")
    for s in d["steps"]:
        check(s["status"] in ("ok", "skipped"), f"whole run: step {s['name']} is {s['status']}: {s.get('reason')}")
        if s["status"] == "skipped":
            check(bool(s.get("reason")), f"whole run: step {s['name']} skipped without a reason")
        if s["name"].startswith("racecheck_"):
            check(s["status"] == "skipped" and "unable to attach" in s.get("reason", ""),
                  f"whole run: {s['name']} is {s['status']} ({s.get('reason')}), not skipped as unable to attach")
        if s["name"].startswith("memcheck_") or s["name"] in ("smoke", "deep_perft6", "stats_perft5", "unique_ply5"):
            check(s["status"] == "ok", f"whole run: {s['name']} did not run: {s.get('reason')}")
    summary = open(os.path.join(out, "device_check_summary.txt")).read()
    check(len(summary.splitlines()) <= 30, "whole run: the summary is more than one screen")
    listing = subprocess.run(["tar", "-tzf", os.path.join(out, "device_check_logs.tar.gz")], stdout=subprocess.PIPE,
                             text=True).stdout.split()
    for name in names:
        if name not in ("configure", "build"):
            check(f"logs/{name}.log" in listing, f"whole run: logs/{name}.log is not in the archive")
    print("whole run: " + ", ".join(f"{s['name']} {s['status']}" for s in d["steps"]))


def killed_run(script, build, tmp, after):
    out = os.path.join(tmp, "out_killed")
    os.mkdir(out)
    env = run_env(script, build, out, tmp)
    env["DEVICE_CHECK_SANITIZER"] = stand_in(tmp, "slow-sanitizer", SLOW_SANITIZER)
    p = subprocess.Popen(["bash", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Ended while the slow sanitizer runs: `after` seconds once the last
    # quick step has reported (a fixed delay from the start raced the steps:
    # on a fast machine they were all done, on a loaded one not begun).
    seen = []
    for line in p.stdout:
        seen.append(line)
        if line.startswith("device_check: gpu_tests ->"):
            break
    time.sleep(after)
    p.send_signal(signal.SIGTERM)
    try:
        text, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        text, _ = p.communicate()
        check(False, "killed run: the script did not end within 30 s of SIGTERM")
    text = "".join(seen) + text
    print(text[-1500:])
    print(f"killed run: exit status {p.returncode} after SIGTERM {after} s into the sanitizer steps")
    check_out_folder(out, "killed run")
    d = load(out, "killed run")
    if d is None:
        return
    names = [s["name"] for s in d["steps"]]
    finished = [s for s in d["steps"] if s["status"] != "interrupted"]
    check(len(finished) >= 1, "killed run: no finished step listed")
    check(names == STEPS[:len(names)], f"killed run: steps {names} are not the first of {STEPS}")
    check(d.get("complete") is False and d.get("ended_by") == "TERM",
          f"killed run: complete {d.get('complete')}, ended_by {d.get('ended_by')}")
    check(p.returncode == 143, f"killed run: exit status {p.returncode}, not 143")
    check(d["steps"] and d["steps"][-1]["status"] == "interrupted", "killed run: the last step is not interrupted")
    for s in d["steps"]:
        check(s["status"] in ("ok", "skipped", "interrupted"), f"killed run: step {s['name']} is {s['status']}")
    print(f"killed run: {len(finished)} finished steps listed, complete {d.get('complete')}, "
          f"ended by {d.get('ended_by')}: " + ", ".join(f"{s['name']} {s['status']}" for s in d["steps"]))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    script, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="device_check_test.") as tmp:
        whole_run(script, build, tmp)
        killed_run(script, build, tmp, float(os.environ.get("DEVICE_CHECK_KILL_AFTER", "1")))
        leftovers = [f for f in os.listdir(tmp) if f.startswith("device_check.")]
        check(not leftovers, f"work folders left behind: {leftovers}")
    print("check_device_script:", "ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
