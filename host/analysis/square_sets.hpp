// Whole-set bitboard functions for the unwinnability analysis: the squares a set
// of kings or knights attacks, square colours, distances. Plain functions with
// no containers, so they can move into common/ if the analysis ever runs on
// the device.
#pragma once

#include <algorithm>

#include "chess/bitboard.hpp"

namespace gperft::analysis {

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

// One step in each of the eight directions, without wrapping round the board.
constexpr Bitboard step_n(Bitboard b) { return b << 8; }
constexpr Bitboard step_s(Bitboard b) { return b >> 8; }
constexpr Bitboard step_e(Bitboard b) { return (b << 1) & ~chess::FILE_A; }
constexpr Bitboard step_w(Bitboard b) { return (b >> 1) & ~chess::FILE_H; }
constexpr Bitboard step_ne(Bitboard b) { return (b << 9) & ~chess::FILE_A; }
constexpr Bitboard step_nw(Bitboard b) { return (b << 7) & ~chess::FILE_H; }
constexpr Bitboard step_se(Bitboard b) { return (b >> 7) & ~chess::FILE_A; }
constexpr Bitboard step_sw(Bitboard b) { return (b >> 9) & ~chess::FILE_H; }

// Squares a slider on any square of b attacks in one direction, rays
// stopping at (and including) the first square of `blockers`.
template <Bitboard (*Step)(Bitboard)>
constexpr Bitboard ray_spread(Bitboard b, Bitboard blockers) {
    const Bitboard open = ~blockers;
    Bitboard g = b;
    for (int i = 0; i < 6; ++i) g |= Step(g) & open;
    return Step(g);
}

// Set-wise slider attacks: every square a bishop (diagonal) or rook
// (orthogonal) on any square of b attacks, given the blockers.
constexpr Bitboard diagonal_spread(Bitboard b, Bitboard blockers) {
    return ray_spread<step_ne>(b, blockers) | ray_spread<step_nw>(b, blockers) | ray_spread<step_se>(b, blockers) |
           ray_spread<step_sw>(b, blockers);
}
constexpr Bitboard orthogonal_spread(Bitboard b, Bitboard blockers) {
    return ray_spread<step_n>(b, blockers) | ray_spread<step_s>(b, blockers) | ray_spread<step_e>(b, blockers) |
           ray_spread<step_w>(b, blockers);
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

}  // namespace gperft::analysis
