// The small vocabulary every other header speaks: colours, piece types,
// squares and the 16-bit move. Host and device share it unchanged.
#pragma once

#include "chess/config.hpp"

namespace chess {

using Bitboard = uint64_t;

enum Color : uint8_t { WHITE = 0, BLACK = 1 };

CHESS_FI constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t { NO_PIECE_TYPE = 0, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING };

// A piece is a type and a colour: piece = type | colour << 3.
enum Piece : uint8_t { NO_PIECE = 0 };

CHESS_FI constexpr Piece make_piece(Color c, PieceType t) { return Piece(t | (c << 3)); }
CHESS_FI constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
CHESS_FI constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares count a1 = 0, b1 = 1, ..., h8 = 63; 64 means "none".
// clang-format off
enum Square : uint8_t {
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    SQ_NONE
};
// clang-format on

CHESS_FI constexpr int file_of(int sq) { return sq & 7; }
CHESS_FI constexpr int rank_of(int sq) { return sq >> 3; }
CHESS_FI constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
// The rank as seen from colour c's side of the board (0 = its back rank).
CHESS_FI constexpr int relative_rank(Color c, int sq) { return c == WHITE ? rank_of(sq) : 7 - rank_of(sq); }

// Castling rights, one bit each.
enum CastlingRight : uint8_t {
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    ALL_CASTLING = 15
};

// Move flags (the top four bits of a move), in the usual 4-bit layout:
//   bit 3 promotion, bit 2 capture, bits 0-1 special (promotion piece
//   N/B/R/Q, or double push / castle side / en passant).
enum MoveFlag : uint8_t {
    QUIET = 0,
    DOUBLE_PUSH = 1,
    KING_CASTLE = 2,
    QUEEN_CASTLE = 3,
    CAPTURE = 4,
    EP_CAPTURE = 5,
    PROMOTION = 8,  // + (piece - KNIGHT), | CAPTURE for capturing promotions
};

// A move in 16 bits: from (0-5) | to (6-11) | flag (12-15).
// Castling is encoded as king takes own rook (e1h1; the flag tells the side),
// the one form that is unambiguous in Chess960; en passant as the pawn's move.
struct Move {
    // Left uninitialised by default, so a move array costs nothing to create
    // (MoveList holds 256); Move{} is the null move.
    uint16_t bits;

    constexpr Move() = default;
    CHESS_FI constexpr explicit Move(uint16_t b) : bits(b) {}
    CHESS_FI constexpr Move(int from, int to, int flag)
        : bits(uint16_t(from | (to << 6) | (flag << 12))) {}

    CHESS_FI constexpr Square from() const { return Square(bits & 63); }
    CHESS_FI constexpr Square to() const { return Square((bits >> 6) & 63); }
    CHESS_FI constexpr int flag() const { return bits >> 12; }
    CHESS_FI constexpr bool is_capture() const { return flag() & CAPTURE; }
    CHESS_FI constexpr bool is_promotion() const { return flag() & PROMOTION; }
    CHESS_FI constexpr bool is_en_passant() const { return flag() == EP_CAPTURE; }
    CHESS_FI constexpr bool is_castle() const { return flag() == KING_CASTLE || flag() == QUEEN_CASTLE; }
    CHESS_FI constexpr PieceType promotion() const { return PieceType(KNIGHT + (flag() & 3)); }
    CHESS_FI constexpr bool is_null() const { return bits == 0; }
    CHESS_FI constexpr bool operator==(const Move& o) const { return bits == o.bits; }
    CHESS_FI constexpr bool operator!=(const Move& o) const { return bits != o.bits; }
};

// splitmix64's output function: mixes a 64-bit word so that every input bit
// reaches every output bit. The one mixer of the project: Zobrist key draws
// (mix64(state += GOLDEN_GAMMA)), identity hashes, random streams.
constexpr uint64_t GOLDEN_GAMMA = 0x9E3779B97F4A7C15ULL;
CHESS_FI constexpr uint64_t mix64(uint64_t h) {
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

}  // namespace chess
