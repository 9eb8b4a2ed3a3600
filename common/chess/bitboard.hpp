// Bitboard masks and shifts. One bit per square, a1 = bit 0, h8 = bit 63;
// "north" is towards rank 8. popcount/lsb go through chess::intrin so the
// device build uses the CUDA intrinsics.
#pragma once

#include "chess/types.hpp"

namespace chess {

constexpr Bitboard FILE_A = 0x0101010101010101ULL;
constexpr Bitboard FILE_H = FILE_A << 7;
constexpr Bitboard RANK_1 = 0xFFULL;
constexpr Bitboard RANK_2 = RANK_1 << 8;
constexpr Bitboard RANK_3 = RANK_1 << 16;
constexpr Bitboard RANK_4 = RANK_1 << 24;
constexpr Bitboard RANK_5 = RANK_1 << 32;
constexpr Bitboard RANK_6 = RANK_1 << 40;
constexpr Bitboard RANK_7 = RANK_1 << 48;
constexpr Bitboard RANK_8 = RANK_1 << 56;

CHESS_FI constexpr Bitboard square_bb(int sq) { return 1ULL << sq; }
CHESS_FI constexpr Bitboard file_bb(int file) { return FILE_A << file; }
CHESS_FI constexpr Bitboard rank_bb(int rank) { return RANK_1 << (8 * rank); }

CHESS_FI int popcount(Bitboard b) { return intrin::popcount(b); }
CHESS_FI int lsb(Bitboard b) { return intrin::lsb(b); }
CHESS_FI int msb(Bitboard b) { return intrin::msb(b); }
CHESS_FI bool more_than_one(Bitboard b) { return b & (b - 1); }

// Removes the lowest set bit of b and returns its index; b must be non-zero.
CHESS_FI int pop_lsb(Bitboard& b) {
    int s = lsb(b);
    b &= b - 1;
    return s;
}

CHESS_FI constexpr Bitboard north(Bitboard b) { return b << 8; }
CHESS_FI constexpr Bitboard south(Bitboard b) { return b >> 8; }
CHESS_FI constexpr Bitboard east(Bitboard b) { return (b & ~FILE_H) << 1; }
CHESS_FI constexpr Bitboard west(Bitboard b) { return (b & ~FILE_A) >> 1; }

// Forward for colour C: north for White, south for Black.
template <Color C>
CHESS_FI constexpr Bitboard forward(Bitboard b) {
    return C == WHITE ? north(b) : south(b);
}

// Squares attacked by pawns of colour C standing on b.
template <Color C>
CHESS_FI constexpr Bitboard pawn_attacks_bb(Bitboard b) {
    return forward<C>(east(b) | west(b));
}

// The square-index step of a forward push for colour C.
template <Color C>
constexpr int PUSH = C == WHITE ? 8 : -8;

}  // namespace chess
