// A position in 24 bytes, by FIDE 9.2 identity: the occupied squares, then
// one 4-bit code per man in square order. The codes a piece needs (colour
// << 3 | type) leave four values free, and they carry the rest of the state:
//   7 / 15  a white / black rook that keeps a castling right,
//   0       the pawn that may be taken en passant (its colour: the side
//           that just moved),
//   8       the black king when Black is to move (so White is to move
//           exactly when no man has code 8).
// Two canonical positions (chess::canonical) of the same mode are the same
// position exactly when their packed forms are equal. The move counters and
// the Chess960 mode are not stored: a frontier holds one mode.
#pragma once

#include "chess/position.hpp"

#if !defined(__CUDA_ARCH__) && defined(__BMI2__)
#include <immintrin.h>
#endif

namespace chess {

struct PackedPosition {
    uint64_t occupied;  // never 0 in a packed position (two kings)
    uint64_t men[2];    // code of the i-th man (from a1 up) in bits 4i..4i+3 of the 128
    CHESS_FI bool operator==(const PackedPosition& o) const {
        return occupied == o.occupied && men[0] == o.men[0] && men[1] == o.men[1];
    }
};

// The most men a packed position holds (a legal position has at most 32).
constexpr int PACKED_MAX_MEN = 32;

namespace packed_detail {

constexpr uint64_t NIBBLE_BIT0 = 0x1111111111111111ULL;

// The bits of `src` at the set bits of `mask`, packed low (PEXT), and the
// inverse (PDEP).
CHESS_FI uint64_t extract(uint64_t src, uint64_t mask) {
#if !defined(__CUDA_ARCH__) && defined(__BMI2__)
    return _pext_u64(src, mask);
#else
    uint64_t out = 0;
    for (uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (src & mask & (0 - mask)) out |= bit;
    return out;
#endif
}
CHESS_FI uint64_t deposit(uint64_t src, uint64_t mask) {
#if !defined(__CUDA_ARCH__) && defined(__BMI2__)
    return _pdep_u64(src, mask);
#else
    uint64_t out = 0;
    for (uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (src & bit) out |= mask & (0 - mask);
    return out;
#endif
}

}  // namespace packed_detail

// The packed form of p, which must be canonical (chess::canonical) and hold
// at most PACKED_MAX_MEN men.
CHESS_HD inline PackedPosition pack(const Position& p) {
    using namespace packed_detail;
    const Bitboard occ = p.occupied();
    // Bit j of each man's code, as a board ("plane j").
    Bitboard plane[4];
    plane[0] = p.pawns | p.diag | p.castle_rooks;             // P B Q, castling R (1 3 5 7)
    plane[1] = p.knights() | p.bishops() | p.kings() | p.castle_rooks;  // N B K, castling R (2 3 6 7)
    plane[2] = p.orth | p.kings();                            // R Q K (4 5 6 7)
    plane[3] = p.color[BLACK];
    if (p.ep != SQ_NONE) {
        const Bitboard pawn = square_bb(p.stm == WHITE ? p.ep - 8 : p.ep + 8);
        for (Bitboard& b : plane) b &= ~pawn;  // code 0
    }
    if (p.stm == BLACK) {
        const Bitboard k = square_bb(p.king[BLACK]);
        plane[0] &= ~k, plane[1] &= ~k, plane[2] &= ~k;  // code 8
    }
    PackedPosition out{occ, {0, 0}};
    for (int j = 0; j < 4; ++j) {
        const uint64_t bits = extract(plane[j], occ);  // bit i: man i
        out.men[0] |= deposit(bits & 0xFFFF, NIBBLE_BIT0 << j);
        out.men[1] |= deposit(bits >> 16, NIBBLE_BIT0 << j);
    }
    return out;
}

// The canonical position of a packed one (counters 0 and 1; the mode given).
CHESS_HD inline Position unpack(const PackedPosition& k, bool chess960) {
    using namespace packed_detail;
    const Bitboard occ = k.occupied;
    Bitboard plane[4];
    for (int j = 0; j < 4; ++j) {
        const uint64_t bits = extract(k.men[0], NIBBLE_BIT0 << j) | extract(k.men[1], NIBBLE_BIT0 << j) << 16;
        plane[j] = deposit(bits, occ);
    }
    const Bitboard p0 = plane[0], p1 = plane[1], p2 = plane[2], p3 = plane[3];
    const Bitboard ep_pawn = occ & ~(p0 | p1 | p2 | p3);
    const Bitboard black_king_to_move = p3 & ~(p0 | p1 | p2);
    const Bitboard castling = p0 & p1 & p2;
    Position p{};
    p.stm = black_king_to_move ? BLACK : WHITE;
    p.pawns = (p0 & ~p1 & ~p2) | ep_pawn;
    p.diag = p0 & ~castling;                  // B Q (P excluded below)
    p.diag &= ~p.pawns;
    p.orth = (p2 & ~p1) | castling;           // R Q, castling R
    p.castle_rooks = castling;
    const Bitboard kings = (p1 & p2 & ~p0) | black_king_to_move;
    p.color[BLACK] = p3 | (p.stm == WHITE ? ep_pawn : 0);
    p.color[WHITE] = occ & ~p.color[BLACK];
    p.king[WHITE] = uint8_t(lsb(kings & p.color[WHITE]));
    p.king[BLACK] = uint8_t(lsb(kings & p.color[BLACK]));
    p.ep = ep_pawn ? uint8_t(p.stm == WHITE ? lsb(ep_pawn) + 8 : lsb(ep_pawn) - 8) : uint8_t(SQ_NONE);
    p.chess960 = chess960;
    p.halfmove = 0;
    p.fullmove = 1;
    return p;
}

}  // namespace chess
