// The position: a 64-byte plain struct, copied rather than undone (copy-make).
// Piece sets are stored as occupancy per colour plus pawns, diagonal sliders
// (bishops and queens) and orthogonal sliders (rooks and queens); knights are
// whatever is left once kings are removed. Castling rights are the rooks that
// keep them, so standard chess, Chess960 and Double Chess960 share one rule.
#pragma once

#include "chess/attacks.hpp"

namespace chess {

struct alignas(16) Position {
    Bitboard color[2];  // occupancy by colour
    Bitboard pawns;
    Bitboard diag;      // bishops | queens
    Bitboard orth;      // rooks | queens
    // The rooks that keep a castling right (FIDE 3.8; Chess960: any file):
    // White's on rank 1, Black's on rank 8, at most one on each side of its
    // king, which stands on the same rank. A king move clears its colour's,
    // a move from or to a rook's square clears that rook's.
    Bitboard castle_rooks;
    uint8_t king[2];    // king square by colour
    Color stm;          // side to move
    uint8_t ep;         // en-passant target square, or SQ_NONE
    // 1 in Chess960 mode: castling is written king-takes-rook (e1h1), and
    // the mode is part of the position's identity (keys, merging).
    uint8_t chess960;
    uint8_t reserved0;  // zero
    uint16_t halfmove;  // plies since the last capture or pawn move (saturates at 65535)
    uint16_t fullmove;  // move number, starting at 1 (saturates at 65535)
    uint8_t reserved[6];  // zero: positions are compared and hashed as whole words

    CHESS_FI Bitboard occupied() const { return color[WHITE] | color[BLACK]; }
    CHESS_FI Bitboard kings() const { return square_bb(king[WHITE]) | square_bb(king[BLACK]); }
    CHESS_FI Bitboard knights() const { return occupied() & ~(pawns | diag | orth | kings()); }
    // One colour's knights: its one king is taken out by its square at hand.
    CHESS_FI Bitboard knights(Color c) const { return (color[c] & ~(pawns | diag | orth)) ^ square_bb(king[c]); }
    CHESS_FI Bitboard bishops() const { return diag & ~orth; }
    CHESS_FI Bitboard rooks() const { return orth & ~diag; }
    CHESS_FI Bitboard queens() const { return diag & orth; }

    CHESS_FI Bitboard pieces(PieceType t) const {
        switch (t) {
            case PAWN: return pawns;
            case KNIGHT: return knights();
            case BISHOP: return bishops();
            case ROOK: return rooks();
            case QUEEN: return queens();
            case KING: return kings();
            default: return 0;
        }
    }
    CHESS_FI Bitboard pieces(Color c, PieceType t) const { return pieces(t) & color[c]; }

    CHESS_FI PieceType type_on(int sq) const {
        const Bitboard b = square_bb(sq);
        if (!(occupied() & b)) return NO_PIECE_TYPE;
        if (pawns & b) return PAWN;
        if (diag & orth & b) return QUEEN;
        if (diag & b) return BISHOP;
        if (orth & b) return ROOK;
        if (kings() & b) return KING;
        return KNIGHT;
    }
    CHESS_FI Piece piece_on(int sq) const {
        const PieceType t = type_on(sq);
        return t == NO_PIECE_TYPE ? NO_PIECE : make_piece((color[BLACK] & square_bb(sq)) ? BLACK : WHITE, t);
    }

    // Field-by-field equality, counters included. Whether two positions are
    // the same position (FIDE 9.2, counters left out) is chess::same_position
    // (chess/identity.hpp).
    CHESS_FI bool operator==(const Position& o) const {
        return color[0] == o.color[0] && color[1] == o.color[1] && pawns == o.pawns && diag == o.diag &&
               orth == o.orth && castle_rooks == o.castle_rooks && king[0] == o.king[0] && king[1] == o.king[1] &&
               stm == o.stm && ep == o.ep && chess960 == o.chess960 && halfmove == o.halfmove &&
               fullmove == o.fullmove;
    }
};
static_assert(sizeof(Position) == 64, "Position layout is part of the device ABI");

// The castling rights as CastlingRight bits: a right on the king's side is
// a castling rook on a file above the king's, the queen's side below it.
CHESS_FI uint8_t castling_rights(const Position& p) {
    uint8_t rights = 0;
    for (int c = 0; c < 2; ++c) {
        const Bitboard rooks = p.castle_rooks & p.color[c];
        const int k = p.king[c];
        if (rooks & ~((square_bb(k) << 1) - 1)) rights |= c == WHITE ? WHITE_OO : BLACK_OO;
        if (rooks & (square_bb(k) - 1)) rights |= c == WHITE ? WHITE_OOO : BLACK_OOO;
    }
    return rights;
}

// Where castling puts the king and the rook: g and f for the king's side,
// c and d for the queen's, on the back rank of the king's square.
CHESS_FI int castle_king_to(int king_from, bool king_side) { return (king_from & 56) + (king_side ? 6 : 2); }
CHESS_FI int castle_rook_to(int king_from, bool king_side) { return (king_from & 56) + (king_side ? 5 : 3); }

// Adds a man of colour c and type t on an empty square; a king also becomes
// its colour's king square. For building and editing positions off the hot
// paths (FEN reading, retracting moves).
CHESS_FI void put_piece(Position& p, int sq, Color c, PieceType t) {
    const Bitboard b = square_bb(sq);
    p.color[c] |= b;
    if (t == PAWN) p.pawns |= b;
    if (t == BISHOP || t == QUEEN) p.diag |= b;
    if (t == ROOK || t == QUEEN) p.orth |= b;
    if (t == KING) p.king[c] = uint8_t(sq);
}

// Empties a square of the piece sets (a king square stays as it is: the
// caller moves the king with put_piece).
CHESS_FI void clear_square(Position& p, int sq) {
    const Bitboard keep = ~square_bb(sq);
    p.color[WHITE] &= keep;
    p.color[BLACK] &= keep;
    p.pawns &= keep;
    p.diag &= keep;
    p.orth &= keep;
}

// Pieces of colour `by` that attack sq, given occupancy occ.
CHESS_FI Bitboard attackers_to(const Position& p, const Attacks& at, int sq, Bitboard occ, Color by) {
    return ((at.pawn(~by, sq) & p.pawns) | (at.knight(sq) & p.knights()) | (at.king(sq) & p.kings()) |
            (at.bishop(sq, occ) & p.diag) | (at.rook(sq, occ) & p.orth)) &
           p.color[by];
}

// Enemy pieces giving check to the side to move.
CHESS_FI Bitboard checkers(const Position& p, const Attacks& at) {
    return attackers_to(p, at, p.king[p.stm], p.occupied(), ~p.stm);
}

CHESS_FI bool in_check(const Position& p, const Attacks& at) { return checkers(p, at) != 0; }

// The e.p. square a double push by Us to `to` leaves: recorded only when an
// enemy pawn stands beside the pushed pawn, so positions that differ only by
// a useless e.p. square compare equal.
template <Color Us>
CHESS_FI int ep_after_double_push(const Position& p, int to) {
    const Bitboard tb = square_bb(to);
    return (east(tb) | west(tb)) & p.pawns & p.color[~Us] ? to - PUSH<Us> : SQ_NONE;
}

// Plays a legal move for side Us and returns the new position.
template <Color Us>
CHESS_FI Position apply_move(const Position& p, Move m) {
    constexpr Color Them = ~Us;
    Position c = p;
    const int from = m.from(), to = m.to(), flag = m.flag();
    const Bitboard fb = square_bb(from), tb = square_bb(to), ft = fb | tb;
    const bool is_pawn = p.pawns & fb;

    // Whatever stood on `to` is captured.
    c.color[Them] &= ~tb;
    c.pawns &= ~tb;
    c.diag &= ~tb;
    c.orth &= ~tb;

    c.color[Us] ^= ft;
    if (is_pawn) c.pawns ^= ft;
    if (p.diag & fb) c.diag ^= ft;
    if (p.orth & fb) c.orth ^= ft;
    const bool king_move = from == p.king[Us];
    if (king_move) c.king[Us] = uint8_t(to);

    c.ep = SQ_NONE;
    if (flag == DOUBLE_PUSH) {
        c.ep = uint8_t(ep_after_double_push<Us>(p, to));
    } else if (flag == EP_CAPTURE) {
        const Bitboard cap = square_bb(to - PUSH<Us>);
        c.color[Them] ^= cap;
        c.pawns ^= cap;
    } else if (flag == KING_CASTLE || flag == QUEEN_CASTLE) {
        // Written king takes own rook: above, both left their squares (the
        // rook as if captured); they land on g/c and f/d.
        const int king_to = castle_king_to(from, flag == KING_CASTLE);
        const Bitboard rook_to = square_bb(castle_rook_to(from, flag == KING_CASTLE));
        c.king[Us] = uint8_t(king_to);
        c.color[Us] |= square_bb(king_to) | rook_to;
        c.orth |= rook_to;
    } else if (flag & PROMOTION) {
        c.pawns ^= tb;
        const PieceType promo = m.promotion();
        if (promo == BISHOP || promo == QUEEN) c.diag |= tb;
        if (promo == ROOK || promo == QUEEN) c.orth |= tb;
    }

    constexpr Bitboard BACK_RANK = Us == WHITE ? RANK_1 : RANK_8;
    c.castle_rooks = p.castle_rooks & ~(ft | (king_move ? BACK_RANK : 0));
    c.halfmove = (is_pawn || m.is_capture()) ? 0 : uint16_t(p.halfmove + (p.halfmove < 0xFFFF));
    c.fullmove = uint16_t(p.fullmove + (Us == BLACK && p.fullmove < 0xFFFF));  // saturates, never wraps to 0
    c.stm = Them;
    return c;
}

CHESS_FI Position apply_move(const Position& p, Move m) {
    return p.stm == WHITE ? apply_move<WHITE>(p, m) : apply_move<BLACK>(p, m);
}

}  // namespace chess
