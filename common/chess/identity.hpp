// Position identity (FIDE 9.2): two positions are the same position when
// the same player is to move, the same men stand on the same squares and
// the same moves are possible — castling rights and the en-passant square
// as stored (canonical() clears an e.p. square no capture can use), and the
// Chess960 mode. The move counters are no part of it.
//
// One place gives the identity's words, their order, equality and hash, for
// host and device; every engine that merges positions uses it: work units,
// the host table, the GPU's levels and frontier, the frontier exchange
// between ranks, and the CPU frontier through the packed form (whose
// equality on canonical positions is this identity).
#pragma once

#include <cstddef>
#include <cstring>

#include "chess/packed_position.hpp"
#include "chess/position.hpp"

namespace chess {

// The identity as IDENTITY_WORDS 64-bit words: the six bitboards (colours,
// pawns, diagonal and orthogonal sliders, castling rooks), then bytes 48..53
// (king squares, side to move, e.p. square, Chess960 mode, a zero byte).
constexpr int IDENTITY_WORDS = 7;
static_assert(offsetof(Position, king) == 48 && offsetof(Position, halfmove) == 54,
              "the last identity word is bytes 48..53 of the position");

CHESS_FI uint64_t identity_word(const Position& p, int i) {
    uint64_t w;
    memcpy(&w, reinterpret_cast<const char*>(&p) + 8 * i, 8);
    return i == IDENTITY_WORDS - 1 ? w & 0x0000FFFFFFFFFFFFULL : w;
}

// Field by field (the same as word by word, in fewer registers on the
// device: the GPU's run heads take 16 instead of 27).
CHESS_FI bool same_position(const Position& a, const Position& b) {
    return a.color[0] == b.color[0] && a.color[1] == b.color[1] && a.pawns == b.pawns && a.diag == b.diag &&
           a.orth == b.orth && a.castle_rooks == b.castle_rooks && a.king[0] == b.king[0] &&
           a.king[1] == b.king[1] && a.stm == b.stm && a.ep == b.ep && a.chess960 == b.chess960;
}

// A total order on identities, field by field: colours, pawns, sliders,
// king squares, side to move, castling rooks, mode, e.p. square. Deep
// runs number their work units in this order and journals record the
// numbers, so it stays as it is.
CHESS_FI bool identity_less(const Position& a, const Position& b) {
    for (int i = 0; i < 5; ++i)
        if (identity_word(a, i) != identity_word(b, i)) return identity_word(a, i) < identity_word(b, i);
    if (a.king[0] != b.king[0]) return a.king[0] < b.king[0];
    if (a.king[1] != b.king[1]) return a.king[1] < b.king[1];
    if (a.stm != b.stm) return a.stm < b.stm;
    if (a.castle_rooks != b.castle_rooks) return a.castle_rooks < b.castle_rooks;
    if (a.chess960 != b.chess960) return a.chess960 < b.chess960;
    return a.ep < b.ep;
}

// A hash of the identity; `salt` gives another hash of the same identity
// (a table keyed by position and depth salts with the depth).
CHESS_FI uint64_t identity_hash(const Position& p, uint64_t salt = 0) {
    uint64_t h = mix64(GOLDEN_GAMMA + salt);
    for (int i = 0; i < IDENTITY_WORDS; ++i) h = mix64(h ^ identity_word(p, i));
    return h;
}

// The hash of a packed position (24 bytes, chess/packed_position.hpp).
CHESS_FI uint64_t identity_hash(const PackedPosition& k) {
    return mix64(k.occupied ^ mix64(k.men[0] ^ mix64(k.men[1] + GOLDEN_GAMMA)));
}

// The three as function objects, for containers and sorts.
struct SamePosition {
    CHESS_HD bool operator()(const Position& a, const Position& b) const { return same_position(a, b); }
};
struct IdentityLess {
    CHESS_HD bool operator()(const Position& a, const Position& b) const { return identity_less(a, b); }
};
struct IdentityHash {
    CHESS_HD uint64_t operator()(const Position& p) const { return identity_hash(p); }
};

}  // namespace chess
