#!/usr/bin/env python3
"""Writes the PGN test files with python-chess (PyPI `chess`) as the
independent source of each game's final position and of the timeout labels:

  random_games.pgn / .fens   random games (standard, Chess960, from set-up
                             positions, promotions), exported with comments,
                             clock annotations, NAGs and variations; .fens
                             holds each game's final FEN, one a line
  famous_games.fens          the final FEN of each game of famous_games.pgn
                             (written by hand)
  timeouts.pgn / .expected   games lost on time from the CHA test positions
                             (dead/chasolver-positions.txt) and a few others;
                             .expected: "game N unfair|fair|-" (- : not asked)

Usage: make_pgn.py   (run from anywhere; deterministic)
"""
import io
import os
import random

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))


def random_game(rng, board, plies, headers):
    game = chess.pgn.Game()
    for k, v in headers.items():
        game.headers[k] = v
    if board.fen() != chess.STARTING_FEN or board.chess960:
        game.setup(board)
        if board.chess960:
            game.headers["Variant"] = "Chess960"
    node = game
    b = board.copy()
    for ply in range(plies):
        moves = list(b.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        # Sidelines, annotations and clocks, as servers and editors write them.
        if rng.random() < 0.05 and len(moves) > 1:
            side = node.add_variation(rng.choice([m for m in moves if m != move]))
            side.comment = "a sideline"
        node = node.add_main_variation(move)
        if rng.random() < 0.1:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6]))
        if rng.random() < 0.1:
            node.comment = "[%%clk 0:0%d:%02d]" % (rng.randrange(10), rng.randrange(60))
        b.push(move)
    game.headers["Result"] = b.result(claim_draw=False) if b.is_game_over() else "*"
    return game, b


def xfen(board):
    return board.fen(shredder=board.chess960, en_passant="xfen")


def write_random(rng):
    games, fens = [], []
    for i in range(160):
        kind = i % 4
        if kind == 3:  # Chess960, each side its own array half of the time
            n = rng.randrange(960)
            board = chess.Board.from_chess960_pos(n)
        elif kind == 2:  # from a set-up position: a random playout first
            board = chess.Board()
            for _ in range(rng.randrange(4, 40)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            board = chess.Board(board.fen())
        else:
            board = chess.Board()
        game, final = random_game(rng, board, rng.randrange(0, 300), {"Event": "random %d" % i, "Round": str(i)})
        games.append(str(game))
        fens.append(xfen(final))
    # Promotions: pawns on the seventh ranks.
    for i, fen in enumerate(["4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1", "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1"]):
        game, final = random_game(rng, chess.Board(fen), 40, {"Event": "promotions %d" % i})
        games.append(str(game))
        fens.append(xfen(final))
    with open(os.path.join(HERE, "random_games.pgn"), "w") as f:
        f.write("\n\n".join(games) + "\n")
    with open(os.path.join(HERE, "random_games.fens"), "w") as f:
        f.write("\n".join(fens) + "\n")


def write_famous():
    with open(os.path.join(HERE, "famous_games.pgn")) as f:
        fens = []
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            fens.append(xfen(game.end().board()))
    with open(os.path.join(HERE, "famous_games.fens"), "w") as f:
        f.write("\n".join(fens) + "\n")


def write_timeouts(rng):
    with open(os.path.join(HERE, "..", "dead", "chasolver-positions.txt")) as f:
        cases = [line.split(" ", 1) for line in f.read().splitlines() if line and not line.startswith("#")]
    rng.shuffle(cases)
    games, expected = [], []

    def add(pgn_text, label):
        games.append(pgn_text)
        expected.append("game %d %s" % (len(games), label))

    for n, (verdict, fen) in enumerate(cases[:40]):
        board = chess.Board(fen)
        if board.is_game_over():
            continue
        winner = rng.choice([chess.WHITE, chess.BLACK])
        can = verdict[0] == "W" if winner == chess.WHITE else verdict[1] == "B"
        result = "1-0" if winner == chess.WHITE else "0-1"
        game = chess.pgn.Game()
        game.headers.update({"Event": "Rated Blitz game", "Site": "https://example.org/cha%d" % n,
                             "White": "w%d" % n, "Black": "b%d" % n, "Result": result,
                             "Termination": "Time forfeit"})
        game.setup(board)
        game.headers["Result"] = result
        add(str(game).replace(" *", " " + result), "fair" if can else "unfair")
    # Other servers' ways of saying it, a drawn time forfeit, a game not lost
    # on time and one with an illegal move.
    add('[Event "casual"]\n[White "a"]\n[Black "b"]\n[Result "0-1"]\n[Termination "b won on time"]\n\n'
        "1. f3 e5 2. g4 0-1\n", "fair")
    add('[Event "casual"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n[SetUp "1"]\n'
        '[FEN "8/8/8/4k3/8/8/3n4/K7 b - - 0 1"]\n\n1... Nb3+ 2. Kb2 {Black forfeits on time} 1-0\n', "unfair")
    add('[Event "casual"]\n[Result "1/2-1/2"]\n[Termination "Time forfeit"]\n[SetUp "1"]\n'
        '[FEN "8/8/8/4k3/8/8/3n4/K7 b - - 0 1"]\n\n1... Kd4 1/2-1/2\n', "-")
    add('[Event "casual"]\n[Result "1-0"]\n[Termination "Normal"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n', "-")
    add('[Event "broken"]\n[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 e5 2. Ke3 1-0\n', "skipped")
    for g in games:  # every game but the broken one reads in python-chess
        if "broken" not in g:
            assert chess.pgn.read_game(io.StringIO(g)).errors == [], g
    with open(os.path.join(HERE, "timeouts.pgn"), "w") as f:
        f.write("\n\n".join(g.strip() for g in games) + "\n")
    with open(os.path.join(HERE, "timeouts.expected"), "w") as f:
        f.write("\n".join(expected) + "\n")


def main():
    rng = random.Random(20261204)
    write_random(rng)
    write_famous()
    write_timeouts(rng)


if __name__ == "__main__":
    main()
