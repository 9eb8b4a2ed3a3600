#!/usr/bin/env python3
"""perftide uci driven by python-chess (PyPI `chess`), as an engine author's
harness would drive Stockfish: the UCI handshake and options through
chess.engine.SimpleEngine, `go perft` through a command of python-chess's
own protocol, and every divide checked against python-chess's move
generator on positions of random games, Chess960 included; `engine.play`
ends (perftide answers a search with `bestmove 0000`).

Usage: test_uci_python_chess.py PERFTIDE_BINARY   (exit 0 when every check holds)
"""
import random
import sys

import chess
import chess.engine

from python_chess_tree import divide as divide_of, random_boards


class Perft(chess.engine.BaseCommand):
    """`go perft N` on the current position: {move: count} and the total."""

    def __init__(self, engine, fen, chess960, depth):
        super().__init__(engine)
        self.fen, self.chess960, self.depth, self.divide = fen, chess960, depth, {}

    def start(self):
        # python-chess manages UCI_Chess960 itself for play and analyse; a
        # command of one's own sets it by hand.
        self._engine.send_line("setoption name UCI_Chess960 value %s" % ("true" if self.chess960 else "false"))
        self._engine.send_line("position fen " + self.fen)
        self._engine.send_line("go perft %d" % self.depth)

    def line_received(self, line):
        if line.startswith("Nodes searched: "):
            self.result.set_result((self.divide, int(line.split(": ")[1])))
            self.set_finished()
        elif ": " in line:
            move, count = line.split(": ")
            self.divide[move] = int(count)


def main():
    failures = []
    engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1], "uci"], timeout=60)
    try:
        if engine.id.get("name") != "perftide":
            failures.append("id name: %r" % engine.id)
        for option in ("Threads", "Hash", "UCI_Chess960", "Backend"):
            if option not in engine.options:
                failures.append("option %s not offered" % option)
        engine.configure({"Threads": 2, "Backend": "cpu"})
        boards = random_boards(12, random.Random(20261201), 39, chess960=lambda game: game % 3 == 2)
        for board in boards:
            fen = board.fen(shredder=board.chess960)
            depth = 3 if board.chess960 else 2
            divide, total = engine.communicate(lambda e: Perft(e, fen, board.chess960, depth))
            expected = divide_of(board, depth)
            if divide != expected or total != sum(expected.values()):
                failures.append("%s depth %d: perftide %d, python-chess %d; moves differ: %s" % (
                    fen, depth, total, sum(expected.values()),
                    sorted(set(divide.items()) ^ set(expected.items()))[:6]))
        print("checked %d positions against python-chess" % len(boards))
        # A go that perftide does not search still ends: play gets its bestmove
        # (0000, no move) instead of waiting for ever.
        played = engine.play(chess.Board(), chess.engine.Limit(depth=1))
        if played.move:
            failures.append("play: expected bestmove 0000, got %s" % played.move)
    finally:
        engine.quit()
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
