#!/usr/bin/env python3
"""Writes dfrc.epd: Double Chess960 positions (each side its own Scharnagl
array) with perft counts D1-D5 from Stockfish in Chess960 mode.

Half are start pairs; half come from random playouts of 2-24 plies from such
pairs (the moves drawn from Stockfish's own `go perft 1`), so castling is met
with pieces developed and rights partly gone. Deterministic for a seed.
Usage: make_dfrc.py [STOCKFISH] > dfrc.epd
"""
import random
import subprocess
import sys

KNIGHTS = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]


def back_rank(n):
    rank = [None] * 8

    def place(k, piece):
        for f in range(8):
            if rank[f] is None:
                if k == 0:
                    rank[f] = piece
                    return
                k -= 1

    rank[2 * (n % 4) + 1] = "B"
    n //= 4
    rank[2 * (n % 4)] = "B"
    n //= 4
    place(n % 6, "Q")
    n //= 6
    first, second = KNIGHTS[n]
    place(second, "N")
    place(first, "N")
    for piece in "RKR":
        place(0, piece)
    return "".join(rank)


def start_fen(white, black):
    w, b = back_rank(white), back_rank(black)
    rights = "".join(chr(ord("A") + f) for f in range(7, -1, -1) if w[f] == "R")
    rights += "".join(chr(ord("a") + f) for f in range(7, -1, -1) if b[f] == "R")
    return f"{b.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{w} w {rights} - 0 1"


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        for line in self.p.stdout:
            line = line.strip()
            if line.startswith(prefix):
                return lines, line
            lines.append(line)
        raise RuntimeError("stockfish ended early")

    def perft(self, fen, moves, depth):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go perft {depth}")
        lines, total = self.wait("Nodes searched")
        divide = [l.split(":")[0] for l in lines if ":" in l and not l.startswith("info")]
        return int(total.split(":")[1]), divide

    def fen(self, fen, moves):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        _, line = self.wait("Fen:")
        self.wait("Checkers:")
        return line[len("Fen:"):].strip()


def main():
    sf = Stockfish(sys.argv[1] if len(sys.argv) > 1 else "/usr/games/stockfish")
    rng = random.Random(960)
    print("# Double Chess960 positions; counts from Stockfish 15.1 with UCI_Chess960 true (tests/data/perft/make_dfrc.py)")
    for i in range(100):
        white, black = rng.randrange(960), rng.randrange(960)
        root, moves = start_fen(white, black), []
        if i % 2:
            for _ in range(rng.randrange(2, 25)):
                _, legal = sf.perft(root, moves, 1)
                if not legal:
                    break
                moves.append(rng.choice(legal))
        fen = sf.fen(root, moves)
        counts = [sf.perft(fen, [], d)[0] for d in range(1, 6)]
        print(fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)))


if __name__ == "__main__":
    main()
