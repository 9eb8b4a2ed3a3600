#!/usr/bin/env python3
"""Classified distinct positions per ply from the start position, against
what is published.

Reads a `perftide unique --json` result (default results/research/unique_ply8.json,
written by bench/unique_bench.sh --ply8), OEIS A083276
(tests/data/unique/a083276.txt) and the chessprogramming.org perft table of
the start position (tests/data/perft/cpw_stats.txt: nodes = A048987,
checkmates = A079485, checks with mates included). Writes
results/research/start_position_plies.json and an SVG plot beside it.

Usage: bench/research_unique.py [unique.json]
"""
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "results", "research")


def a083276():
    terms = {}
    with open(os.path.join(ROOT, "tests/data/unique/a083276.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                ply, n = line.split()
                terms[int(ply)] = int(n)
    return terms


def cpw_start():
    """depth -> (nodes, checks incl. mates, checkmates) of the start position."""
    rows, inside = {}, False
    with open(os.path.join(ROOT, "tests/data/perft/cpw_stats.txt")) as f:
        for line in f:
            if line.startswith("position "):
                inside = line.startswith("position Initial position")
                continue
            if inside and line.strip() and not line.startswith("#"):
                c = line.split()
                rows[int(c[0])] = (int(c[1]), int(c[6]), int(c[9]))
    return rows


def compare(ours, published, source):
    if published is None:
        return {"value": ours, "published": None, "source": None}
    return {"value": ours, "published": published, "source": source, "matches": ours == published}


def svg_plot(plies, path):
    """Distinct positions and their classes per ply, log scale."""
    series = [("distinct", "#1f77b4"), ("in_check", "#d62728"), ("castling", "#2ca02c"),
              ("en_passant", "#9467bd"), ("checkmates", "#000000")]
    w, h, left, right, top, bottom = 720, 440, 70, 150, 30, 50
    top_exp = max(1, math.ceil(math.log10(max(int(p["distinct"]) for p in plies))))
    n = len(plies) - 1

    def x(ply):
        return left + (w - left - right) * ply / max(n, 1)

    def y(v):
        return top + (h - top - bottom) * (1 - math.log10(max(v, 1)) / top_exp)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">Distinct positions after each ply from the start position '
           f'(FIDE 9.2), log scale</text>']
    for e in range(0, top_exp + 1):
        yy = y(10 ** e)
        out.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{w - right}" y2="{yy:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end">1e{e}</text>')
    for p in plies:
        xx = x(p["ply"])
        out.append(f'<text x="{xx:.1f}" y="{h - bottom + 18}" text-anchor="middle">{p["ply"]}</text>')
    out.append(f'<text x="{(left + w - right) / 2:.1f}" y="{h - 12}" text-anchor="middle">ply</text>')
    for i, (key, colour) in enumerate(series):
        pts = [(x(p["ply"]), y(int(p[key]))) for p in plies if int(p[key]) > 0]
        if pts:
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="' +
                       " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '"/>')
            for a, b in pts:
                out.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{colour}"/>')
        ly = top + 20 * i + 10
        out.append(f'<line x1="{w - right + 15}" y1="{ly}" x2="{w - right + 35}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="2"/><text x="{w - right + 40}" y="{ly + 4}">{key.replace("_", " ")}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(OUT, "unique_ply8.json")
    with open(src) as f:
        run = json.load(f)
    oeis, cpw = a083276(), cpw_start()
    rows = []
    for p in run["plies"]:
        d = p["ply"]
        nodes, checks, mates = cpw.get(d, (None, None, None)) if d > 0 else (1, 0, 0)
        rows.append({
            "ply": d,
            "distinct": compare(int(p["distinct"]), oeis.get(d), "OEIS A083276"),
            "paths": compare(int(p["paths"]), nodes, "OEIS A048987 (chessprogramming.org Perft Results)"),
            "check_paths": compare(int(p["check_paths"]), checks,
                                   "chessprogramming.org Perft Results, checks (mates included)"),
            "checkmate_paths": compare(int(p["checkmate_paths"]), mates, "OEIS A079485"),
            # Distinct positions by class: no publication found.
            "in_check": int(p["in_check"]), "checkmates": int(p["checkmates"]),
            "stalemates": int(p["stalemates"]), "dead_by_material": int(p["dead"]),
            "en_passant": int(p["en_passant"]), "castling": int(p["castling"]),
            "stalemate_paths": int(p["stalemate_paths"]),
        })
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    doc = {
        "what": "distinct positions after each ply from the start position (FIDE 9.2 identity: men, side to move, "
                "castling rights, e.p. only when an e.p. capture is legal), classified; path-weighted counts beside",
        "made_by": "perftide unique --depth %d --json, %s backend (%.0f s in the process that printed it)" %
                   (run["depth"], run["backend"], run["seconds"]),
        "commit": commit,
        "unpublished": "no publication was found for the classes of distinct positions (in check, checkmates, "
                       "stalemates, dead by material, with a legal e.p. capture, with a castling right); "
                       "they are counted here, not checked against a source. Grand Chess Tree's "
                       "'unique_positions' counts differ from A083276 from ply 3 on (another identity) and are "
                       "not compared.",
        "classes": {"in_check": "side to move in check (mates included)",
                    "dead_by_material": "insufficient material for both sides, mates and stalemates apart",
                    "en_passant": "an e.p. capture is legal", "castling": "some castling right is kept"},
        "plies": rows,
    }
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "start_position_plies.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    svg_plot(run["plies"], os.path.join(OUT, "start_position_plies.svg"))
    bad = [(r["ply"], k) for r in rows for k in ("distinct", "paths", "check_paths", "checkmate_paths")
           if r[k].get("matches") is False]
    print("wrote results/research/start_position_plies.json and .svg;",
          "every published number matches" if not bad else f"MISMATCHES: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
