#!/usr/bin/env python3
"""Pictures of the recorded results: reads results/*.json, writes PNGs.

    bench/plot.py [--results DIR] [--out DIR]

Each plot comes from one results file and says so in its title, with the
machine and commit the file names. A file that is not there is skipped with
a note (exit status 0); a file that is there but does not read as expected
stops the script (exit status 1), so that a renamed field is noticed.
Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

PERFTIDE = "#1f6fb4"
PEER = "#c8553d"
TABLE = "#3a9d5d"


def load(results, name):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        print(f"plot: {name} not found, its plot skipped")
        return None
    with open(path) as f:
        return json.load(f, object_pairs_hook=renamed_keys)


# Files recorded before the rename to perftide name the program by its old
# name in their keys ("gperft_speed_ratio"); they are read under the new one.
OLD_NAME = "gperft"


def renamed_keys(pairs):
    return {k.replace(OLD_NAME, "perftide"): v for k, v in pairs}


def machine_of(d):
    m = d.get("machine", "")
    if isinstance(m, dict):
        m = ", ".join(str(m[k]) for k in ("cpu", "cores") if k in m) + (" cores" if "cores" in m else "")
    return f"{m}; commit {d.get('commit', '?')}"


def save(fig, out, name):
    path = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"plot: wrote {path}")


def cpu_nodes_per_second(results, out):
    """Single-thread nodes/s by position, perftide beside each peer measured."""
    d = load(results, "cpu_peers.json")
    if d is None:
        return
    rows = d["rows"]
    engines = ["perftide"] + [p["name"] for p in d["peers"]]
    colours = [PERFTIDE, PEER, TABLE, "#8a6fb3", "#999999"]
    labels = [r["position"].replace(" d", "\nd") for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.2))
    width = 0.8 / len(engines)
    for j, name in enumerate(engines):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(rows))]
        ax.bar(xs, [r["engines"][name]["mnps"] for r in rows], width, label=name, color=colours[j % len(colours)])
    ax.set_xticks(list(range(len(rows))), labels)
    ax.set_ylabel("million nodes per second (one thread)")
    ax.set_title(f"CPU perft, one thread, whole process (median of alternating rounds)\n{machine_of(d)}",
                 fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out, "cpu_nodes_per_second.png")


def cpu_scaling(results, out):
    """Threads (speed-up over one thread) and depth (time without and with the table)."""
    d = load(results, "cpu_scaling.json")
    if d is None:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    threads = [r["threads"] for r in d["threads"]]
    one = d["threads"][0]["wall_s"]
    left.plot(threads, [one / r["wall_s"] for r in d["threads"]], "o-", color=PERFTIDE, label="perftide")
    left.plot(threads, threads, "--", color="grey", label="linear")
    left.set_xticks(threads)
    left.set_xlabel("threads")
    left.set_ylabel("speed-up over one thread")
    left.set_title("start position perft 7, no table", fontsize=10)
    left.legend()
    depths = [r["depth"] for r in d["depths"]]
    right.semilogy(depths, [r["plain_wall_s"] for r in d["depths"]], "o-", color=PERFTIDE, label="no table")
    right.semilogy(depths, [r["table_wall_s"] for r in d["depths"]], "s-", color=TABLE, label="transposition table")
    right.set_xticks(depths)
    right.set_xlabel("depth")
    right.set_ylabel("wall seconds (whole process)")
    right.set_title("start position perft by depth, all threads", fontsize=10)
    right.legend()
    fig.suptitle(f"CPU scaling ({d['method']}); {machine_of(d)}", fontsize=10)
    save(fig, out, "cpu_scaling.png")


def dead_positions(results, out):
    """The dead-position solver's verdicts on CHA's test positions, and its time per position."""
    d = load(results, "dead_positions.json")
    if d is None:
        return
    a = d["accuracy"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    groups = ["dead positions", "winnable sides"]
    found = [a["dead_found"], a["winnable_found"]]
    missed = [a["dead"] - a["dead_found"], a["winnable_sides"] - a["winnable_found"]]
    left.bar(groups, found, color=PERFTIDE, label="proved")
    left.bar(groups, missed, bottom=found, color="lightgrey", label="left unknown")
    for i in range(2):
        total = found[i] + missed[i]
        left.annotate(f"{100 * found[i] / total:.1f}% of {total}", (i, total), ha="center", va="bottom", fontsize=9)
    left.set_ylabel("count")
    left.set_title(f"verdicts on {d['positions']} CHA test positions: {a['unsound']} unsound", fontsize=10)
    left.legend(loc="center right")
    run = next(r for r in d["runs"] if "microseconds_per_position" in r)
    pct = run["microseconds_per_position"]
    keys = ["median", "p90", "p99", "max"]
    right.bar(keys, [pct[k] / 1e3 for k in keys], color=PERFTIDE)
    right.set_yscale("log")
    right.set_ylabel("milliseconds per position")
    right.set_title(f"time per position ({run['mode']},\n{d['node_budget_per_side']:,} search nodes a side)", fontsize=10)
    fig.suptitle(f"dead positions (FIDE 5.2b); {machine_of(d)}", fontsize=10)
    save(fig, out, "dead_positions.png")


def dead_vs_cha(results, out):
    """Positions per CPU second of analyze and CHA on each position set, with the sides each decided."""
    d = load(results, "dead_vs_cha.json")
    if d is None:
        return
    sets = list(d["sets"])
    tools = [("cha", "CHA 2.6.1", PEER), ("perftide", "perftide (default budget)", PERFTIDE),
             ("perftide_at_cha_budget", "perftide at CHA's budget", TABLE)]
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.8 / len(tools)
    for j, (key, label, colour) in enumerate(tools):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(sets))]
        runs = [d["sets"][s][key] for s in sets]
        ax.bar(xs, [r["positions_per_cpu_second"] for r in runs], width, label=label, color=colour)
        for x, r in zip(xs, runs):
            ax.annotate(f"{r['sides_decided']}/{r['sides']}", (x, r["positions_per_cpu_second"]), ha="center",
                        va="bottom", fontsize=7)
    ax.set_yscale("log")
    ax.set_xticks(list(range(len(sets))), [f"{s.replace('_', ' ')}\n({d['sets'][s]['cha']['positions']} positions)"
                                          for s in sets])
    ax.set_ylabel("positions per CPU second (both sides)")
    ax.set_title(f"dead positions beside CHA, one thread; labels: sides decided\n{machine_of(d)}", fontsize=10)
    ax.legend(fontsize=8)
    save(fig, out, "dead_vs_cha.png")


def unique_plies(results, out):
    """Distinct positions per ply from the start position, beside all paths (perft)."""
    d = load(results, "research/start_position_plies.json")
    if d is None:
        return
    plies = d["plies"]
    x = [p["ply"] for p in plies]
    fig, ax = plt.subplots(figsize=(7, 4))
    value = lambda v: int(v["value"] if isinstance(v, dict) else v)  # noqa: E731
    ax.semilogy(x, [value(p["paths"]) for p in plies], "o-", color=PEER, label="move paths (perft)")
    ax.semilogy(x, [value(p["distinct"]) for p in plies], "s-", color=PERFTIDE, label="distinct positions (A083276)")
    ax.set_xlabel("ply")
    ax.set_ylabel("count")
    ax.set_xticks(x)
    ax.set_title(f"from the start position (perftide unique); commit {d.get('commit', '?')}", fontsize=10)
    ax.legend()
    save(fig, out, "unique_plies.png")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", default=os.path.join(here, "..", "results"), help="where the JSON files are")
    p.add_argument("--out", default=None, help="where the PNGs go (default: the results folder)")
    args = p.parse_args()
    out = args.out or args.results
    os.makedirs(out, exist_ok=True)
    try:
        for plot in (cpu_nodes_per_second, cpu_scaling, dead_positions, dead_vs_cha, unique_plies):
            plot(args.results, out)
    except (KeyError, TypeError, ValueError, StopIteration) as e:
        print(f"plot: a results file does not read as expected ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
