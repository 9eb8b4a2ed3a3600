// The position: a 48-byte plain struct, copied rather than undone (copy-make).
// Piece sets are stored as occupancy per colour plus pawns, diagonal sliders
// (bishops and queens) and orthogonal sliders (rooks and queens); knights are
// whatever is left once kings are removed.
#pragma once

#include "chess/attacks.hpp"

namespace chess {

struct alignas(16) Position {
    Bitboard color[2];  // occupancy by colour
    Bitboard pawns;
    Bitboard diag;      // bishops | queens
    Bitboard orth;      // rooks | queens
    uint8_t king[2];    // king square by colour
    Color stm;          // side to move
    uint8_t castling;   // CastlingRight bits
    uint8_t ep;         // en-passant target square, or SQ_NONE
    uint8_t halfmove;   // plies since the last capture or pawn move (saturates at 255)
    uint16_t fullmove;  // move number, starting at 1 (saturates at 65535)

    CHESS_FI Bitboard occupied() const { return color[WHITE] | color[BLACK]; }
    CHESS_FI Bitboard kings() const { return square_bb(king[WHITE]) | square_bb(king[BLACK]); }
    CHESS_FI Bitboard knights() const { return occupied() & ~(pawns | diag | orth | kings()); }
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

    // Field-by-field equality, counters included.
    CHESS_FI bool operator==(const Position& o) const {
        return color[0] == o.color[0] && color[1] == o.color[1] && pawns == o.pawns && diag == o.diag &&
               orth == o.orth && king[0] == o.king[0] && king[1] == o.king[1] && stm == o.stm &&
               castling == o.castling && ep == o.ep && halfmove == o.halfmove && fullmove == o.fullmove;
    }
};
static_assert(sizeof(Position) == 48, "Position layout is part of the device ABI");

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

// Castling rights lost when a move touches a square (king or rook origin,
// or a rook captured on its corner).
CHESS_FI uint8_t rights_lost(Bitboard touched) {
    uint8_t lost = 0;
    if (touched & (square_bb(SQ_E1) | square_bb(SQ_H1))) lost |= WHITE_OO;
    if (touched & (square_bb(SQ_E1) | square_bb(SQ_A1))) lost |= WHITE_OOO;
    if (touched & (square_bb(SQ_E8) | square_bb(SQ_H8))) lost |= BLACK_OO;
    if (touched & (square_bb(SQ_E8) | square_bb(SQ_A8))) lost |= BLACK_OOO;
    return lost;
}

// Plays a legal move for side Us and returns the new position. The en-passant
// square is recorded only when an enemy pawn stands beside the pushed pawn,
// so positions that differ only by a useless e.p. square compare equal.
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
    if (from == p.king[Us]) c.king[Us] = uint8_t(to);

    c.ep = SQ_NONE;
    if (flag == DOUBLE_PUSH) {
        const Bitboard beside = east(tb) | west(tb);
        if (beside & p.pawns & p.color[Them]) c.ep = uint8_t(to - PUSH<Us>);
    } else if (flag == EP_CAPTURE) {
        const Bitboard cap = square_bb(to - PUSH<Us>);
        c.color[Them] ^= cap;
        c.pawns ^= cap;
    } else if (flag == KING_CASTLE || flag == QUEEN_CASTLE) {
        const int rank = Us == WHITE ? 0 : 56;
        const Bitboard rook = flag == KING_CASTLE ? square_bb(rank + 7) | square_bb(rank + 5)
                                                  : square_bb(rank + 0) | square_bb(rank + 3);
        c.color[Us] ^= rook;
        c.orth ^= rook;
    } else if (flag & PROMOTION) {
        c.pawns ^= tb;
        const PieceType promo = m.promotion();
        if (promo == BISHOP || promo == QUEEN) c.diag |= tb;
        if (promo == ROOK || promo == QUEEN) c.orth |= tb;
    }

    c.castling = p.castling & ~rights_lost(ft);
    c.halfmove = (is_pawn || m.is_capture()) ? 0 : uint8_t(p.halfmove + (p.halfmove < 255));
    c.fullmove = uint16_t(p.fullmove + (Us == BLACK && p.fullmove < 0xFFFF));  // saturates, never wraps to 0
    c.stm = Them;
    return c;
}

CHESS_FI Position apply_move(const Position& p, Move m) {
    return p.stm == WHITE ? apply_move<WHITE>(p, m) : apply_move<BLACK>(p, m);
}

}  // namespace chess
