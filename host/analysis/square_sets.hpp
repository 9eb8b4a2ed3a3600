// Whole-set bitboard functions for the unwinnability analysis: the squares a set
// of kings or knights attacks, square colours, distances. Plain functions with
// no containers, so they can move into common/ if the analysis ever runs on
// the device.
#pragma once

#include <algorithm>

#include "chess/bitboard.hpp"

namespace perftide::analysis {

using chess::Bitboard;

constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;  // a1 is dark
constexpr Bitboard LIGHT_SQUARES = ~DARK_SQUARES;

// Every square a king on any square of b attacks.
constexpr Bitboard king_spread(Bitboard b) {
    const Bitboard row = b | chess::east(b) | chess::west(b);
    return (row | chess::north(row) | chess::south(row)) & ~b;
}

// Every square a knight on any square of b attacks.
constexpr Bitboard knight_spread(Bitboard b) {
    const Bitboard e1 = chess::east(b), w1 = chess::west(b);
    const Bitboard e2 = chess::east(e1), w2 = chess::west(w1);
    const Bitboard one = e1 | w1, two = e2 | w2;
    return (one << 16) | (one >> 16) | (two << 8) | (two >> 8);
}

// Squares a slider on any square of b attacks in one direction, rays
// stopping at (and including) the first square of `blockers`. An occluded
// fill in three doubling steps (Kogge-Stone): Shift is the step's signed bit
// offset, Land the squares a step may land on (the file mask against
// wrapping round the board).
template <int Shift, Bitboard Land>
constexpr Bitboard ray_spread(Bitboard b, Bitboard blockers) {
    constexpr auto shift = [](Bitboard x, int n) { return Shift > 0 ? x << (Shift * n) : x >> (-Shift * n); };
    Bitboard open = ~blockers & Land;
    b |= open & shift(b, 1);
    open &= shift(open, 1);
    b |= open & shift(b, 2);
    open &= shift(open, 2);
    b |= open & shift(b, 4);
    return shift(b, 1) & Land;
}

// Where a step east (NOT_A), west (NOT_H) or along a file (ANY) may land.
constexpr Bitboard NOT_A = ~chess::FILE_A, NOT_H = ~chess::FILE_H, ANY = ~Bitboard(0);

// Set-wise slider attacks: every square a bishop (diagonal) or rook
// (orthogonal) on any square of b attacks, given the blockers.
constexpr Bitboard diagonal_spread(Bitboard b, Bitboard blockers) {
    return ray_spread<9, NOT_A>(b, blockers) | ray_spread<7, NOT_H>(b, blockers) |
           ray_spread<-7, NOT_A>(b, blockers) | ray_spread<-9, NOT_H>(b, blockers);
}
constexpr Bitboard orthogonal_spread(Bitboard b, Bitboard blockers) {
    return ray_spread<8, ANY>(b, blockers) | ray_spread<-8, ANY>(b, blockers) |
           ray_spread<1, NOT_A>(b, blockers) | ray_spread<-1, NOT_H>(b, blockers);
}

// Squares attacked by pawns of colour c standing on b.
constexpr Bitboard pawn_spread(chess::Color c, Bitboard b) {
    return c == chess::WHITE ? chess::pawn_attacks_bb<chess::WHITE>(b) : chess::pawn_attacks_bb<chess::BLACK>(b);
}

constexpr Bitboard pawn_push(chess::Color c, Bitboard b) {
    return c == chess::WHITE ? chess::north(b) : chess::south(b);
}

constexpr Bitboard promotion_rank(chess::Color c) { return c == chess::WHITE ? chess::RANK_8 : chess::RANK_1; }

inline int chebyshev(int a, int b) {
    const int df = chess::file_of(a) - chess::file_of(b), dr = chess::rank_of(a) - chess::rank_of(b);
    return std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr);
}

}  // namespace perftide::analysis
