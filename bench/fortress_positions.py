#!/usr/bin/env python3
"""Writes pawn-fortress positions, one EPD a line, for timing analyze on
blocked positions: a pawn chain locked across all eight files (each white
pawn blocked by a black one, neighbouring files one rank apart, so that every
pawn a king could reach is defended), the kings on their own sides, and in
three of four positions bishops bound to their own pawns' colour, which can
neither cross the chain nor attack a pawn. The last quarter adds one breaker
(a knight, or a bishop of the other colour): those positions are mostly
winnable. Deterministic for a seed; python-chess (PyPI `chess`) checks each
position is legal.

Usage: fortress_positions.py [--count N] [--seed S] > fortresses.epd
"""
import argparse
import random

import chess


def chain(rng):
    """White pawn ranks (0-based) per file, a walk of +-1 steps in 1..4."""
    ranks = [rng.randint(1, 4)]
    for _ in range(7):
        r = ranks[-1]
        ranks.append(rng.choice([x for x in (r - 1, r + 1) if 1 <= x <= 4]))
    return ranks


def fortress(rng, kind):
    ranks = chain(rng)
    board = chess.Board(None)
    for f, r in enumerate(ranks):
        board.set_piece_at(chess.square(f, r), chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(chess.square(f, r + 1), chess.Piece(chess.PAWN, chess.BLACK))
    below = [chess.square(f, r) for f in range(8) for r in range(ranks[f])]
    above = [chess.square(f, r) for f in range(8) for r in range(ranks[f] + 2, 8)]
    white_colour = (ranks[0]) % 2  # square colour parity of every white pawn: (file + rank) % 2
    own = lambda sq, parity: (chess.square_file(sq) + chess.square_rank(sq)) % 2 == parity

    def place(piece, squares):
        free = [s for s in squares if board.piece_at(s) is None]
        board.set_piece_at(rng.choice(free), piece)

    place(chess.Piece(chess.KING, chess.WHITE), below)
    place(chess.Piece(chess.KING, chess.BLACK), above)
    if kind >= 1:  # bishops on their own pawns' colour
        for _ in range(rng.randint(1, kind)):
            place(chess.Piece(chess.BISHOP, chess.WHITE), [s for s in below if own(s, white_colour)])
        for _ in range(rng.randint(0, kind)):
            place(chess.Piece(chess.BISHOP, chess.BLACK), [s for s in above if own(s, 1 - white_colour)])
    if kind == 3:  # one breaker
        colour = rng.choice([chess.WHITE, chess.BLACK])
        side = below if colour == chess.WHITE else above
        if rng.random() < 0.5:
            place(chess.Piece(chess.KNIGHT, colour), side)
        else:
            parity = 1 - white_colour if colour == chess.WHITE else white_colour
            place(chess.Piece(chess.BISHOP, colour), [s for s in side if own(s, parity)])
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    written = 0
    while written < args.count:
        kind = written * 4 // args.count  # 0: kings and pawns, 1-2: bishops, 3: a breaker
        board = fortress(rng, kind)
        if board.is_valid() and any(board.legal_moves):
            print(board.epd() + ' id "fortress-%d-%d";' % (kind, written))
            written += 1


if __name__ == "__main__":
    main()
