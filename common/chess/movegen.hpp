// Legal move generation, templated on the side to move and on a sink that
// receives moves in sets: MoveList expands them, MoveCounter only counts
// (bulk counting), and other sinks (device staging, statistics) plug in the
// same way. Moves are legal by construction: check and pin masks are applied
// while generating; only en passant gets a full king-safety test.
#pragma once

#include "chess/position.hpp"

namespace chess {

// No position parse_fen accepts has more moves: it refuses more than 16
// pieces a side (MAX_PIECES_PER_SIDE), and a queen has at most 27 moves, a
// pawn 12 (three squares, four promotions), a king 8 plus two castlings, so
// 15 * 27 + 10 = 415 bounds any side. Legal games never pass 218; positions
// from elsewhere (promotion-inconsistent material, as in unwinnability test
// sets) are bounded only by the piece count.
constexpr int MAX_PIECES_PER_SIDE = 16;
constexpr int MAX_MOVES = 416;

// Sink interface:
//   piece_moves(from, targets, them): a move from `from` to each target;
//       those in `them` are captures.
//   pawn_moves(targets, delta, flag): a move to each target t from t - delta.
//   promotions(targets, delta, flag): four promotions to each target.
//   single(move): one move.
//   note_checkers(checkers), optional: the men checking the mover's king,
//       before any move.
// The half of an expanding sink that turns move sets into single moves; the
// sink itself (Out) says where each one goes, by `add(Move)`.
template <class Out>
struct MoveExpander {
    CHESS_FI void piece_moves(int from, Bitboard targets, Bitboard them) {
        while (targets) {
            const int to = pop_lsb(targets);
            out().add(Move(from, to, (them & square_bb(to)) ? CAPTURE : QUIET));
        }
    }
    CHESS_FI void pawn_moves(Bitboard targets, int delta, int flag) {
        while (targets) {
            const int to = pop_lsb(targets);
            out().add(Move(to - delta, to, flag));
        }
    }
    CHESS_FI void promotions(Bitboard targets, int delta, int flag) {
        while (targets) {
            const int to = pop_lsb(targets);
            for (int piece = 3; piece >= 0; --piece) out().add(Move(to - delta, to, flag | piece));
        }
    }
    CHESS_FI void single(Move m) { out().add(m); }

private:
    CHESS_FI Out& out() { return static_cast<Out&>(*this); }
};

struct MoveList : MoveExpander<MoveList> {
    Move moves[MAX_MOVES];
    int size = 0;

    CHESS_FI void add(Move m) { moves[size++] = m; }
    CHESS_FI const Move* begin() const { return moves; }
    CHESS_FI const Move* end() const { return moves + size; }
};

struct MoveCounter {
    uint32_t count = 0;

    CHESS_FI void piece_moves(int, Bitboard targets, Bitboard) { count += popcount(targets); }
    CHESS_FI void pawn_moves(Bitboard targets, int, int) { count += popcount(targets); }
    CHESS_FI void promotions(Bitboard targets, int, int) { count += 4 * popcount(targets); }
    CHESS_FI void single(Move) { ++count; }
};

namespace detail {

// A pinned pawn's moves, one target at a time (pins are rare).
template <Color Us, class Sink>
CHESS_FI void pinned_pawn_moves(Sink& sink, int from, Bitboard targets, Bitboard them) {
    constexpr Bitboard PROMO_RANK = Us == WHITE ? RANK_8 : RANK_1;
    while (targets) {
        const int to = pop_lsb(targets);
        const Bitboard tb = square_bb(to);
        const int flag = (them & tb) ? CAPTURE : (to - from == 2 * PUSH<Us> ? DOUBLE_PUSH : QUIET);
        if (tb & PROMO_RANK)
            sink.promotions(tb, to - from, PROMOTION | flag);
        else
            sink.pawn_moves(tb, to - from, flag);
    }
}

// Castling (3.8, and Chess960's rule for any start files) by the king on
// `king` with the rook that keeps its right on `rook` (both on the back rank
// whose first square is `first`), in two halves. First: every square the king
// and the rook pass over or land on is empty but for the two of them.
CHESS_FI bool castling_squares_empty(const Attacks& at, int first, int king, int rook, Bitboard occ) {
    return !(occ & (Bitboard(at.castling(king & 7, rook & 7) & 0xFF) << first));
}

// Then, for a king not in check: no square the king passes over or lands on
// is attacked. `danger` holds every enemy attack with the king taken off the
// board; taking the rook off too matters only when it shields the king's
// target along the rank, which only a rook on the b-file castling to c can,
// from a rook or queen on the a-file corner behind it.
CHESS_FI bool castling_squares_safe(const Attacks& at, int first, int king, int rook, Bitboard danger,
                                    Bitboard their_orth) {
    if (danger & (Bitboard(at.castling(king & 7, rook & 7) >> 8) << first)) return false;
    return rook > king || (rook & 7) != 1 || !(their_orth & square_bb(first));
}

// What every part of the generator reads: the mover's and the enemy's sets,
// and the checks on the mover's king and the pins against it.
template <Color Us>
struct GenState {
    static constexpr Color Them = ~Us;
    const Position& p;
    const Attacks& at;
    Bitboard us, them, occ;
    int ksq;
    Bitboard their_pawns, their_knights, their_diag, their_orth;
    Bitboard checkers, pinned;

    // Checks and pins by sliders in one pass over the enemy sliders on the
    // king's lines: with nothing between, a checker; with one of ours
    // between, that one is pinned.
    CHESS_FI GenState(const Position& pos, const Attacks& a)
        : p(pos), at(a), us(pos.color[Us]), them(pos.color[Them]), occ(us | them), ksq(pos.king[Us]),
          their_pawns(pos.pawns & them), their_knights(pos.knights(Them)), their_diag(pos.diag & them),
          their_orth(pos.orth & them) {
        Bitboard c = (a.pawn(Us, ksq) & their_pawns) | (a.knight(ksq) & their_knights);
        Bitboard pn = 0;
        for (Bitboard snipers = (a.rook_empty(ksq) & their_orth) | (a.bishop_empty(ksq) & their_diag); snipers;) {
            const int sniper = pop_lsb(snipers);
            const Bitboard blockers = a.between(ksq, sniper) & occ;
            if (!blockers)
                c |= square_bb(sniper);
            else if (!more_than_one(blockers))
                pn |= blockers & us;
        }
        checkers = c;
        pinned = pn;
    }
};

// King steps and castling, against a map of enemy attacks seen through our
// king (so that it cannot shield a square behind itself from a slider that
// checks it). The map needs only the enemy pieces that can reach a square the
// king may step to or pass over.
template <Color Us, class Sink>
CHESS_FI void king_moves(const GenState<Us>& g, Sink& sink) {
    constexpr Color Them = ~Us;
    constexpr int R = Us == WHITE ? SQ_A1 : SQ_A8;  // the back rank's first square
    const Attacks& at = g.at;
    const int ksq = g.ksq;
    Bitboard castles = 0;  // castling rooks whose squares are empty
    for (Bitboard b = g.checkers ? 0 : g.p.castle_rooks & g.us; b;) {
        const int rook = pop_lsb(b);
        if (castling_squares_empty(at, R, ksq, rook, g.occ)) castles |= square_bb(rook);
    }
    const Bitboard steps = at.king(ksq) & ~g.us;
    if (!(steps | castles)) return;
    Bitboard near_knight = at.knight_near_king(ksq), near_diag = at.diag_near_king(ksq),
             near_orth = at.orth_near_king(ksq);
    for (Bitboard b = castles; b;) {
        const int side = pop_lsb(b) < ksq;
        near_knight |= at.knight_near_castling(ksq, side);
        near_diag |= at.diag_near_castling(ksq, side);
        near_orth |= at.orth_near_castling(ksq, side);
    }
    const Bitboard occ_without_king = g.occ ^ square_bb(ksq);
    Bitboard danger = pawn_attacks_bb<Them>(g.their_pawns) | at.king(g.p.king[Them]);
    for (Bitboard b = g.their_knights & near_knight; b;) danger |= at.knight(pop_lsb(b));
    for (Bitboard b = g.their_diag & near_diag; b;) danger |= at.bishop(pop_lsb(b), occ_without_king);
    for (Bitboard b = g.their_orth & near_orth; b;) danger |= at.rook(pop_lsb(b), occ_without_king);
    sink.piece_moves(ksq, steps & ~danger, g.them);
    while (castles) {
        const int rook = pop_lsb(castles);
        if (castling_squares_safe(at, R, ksq, rook, danger, g.their_orth))
            sink.single(Move(ksq, rook, rook > ksq ? KING_CASTLE : QUEEN_CASTLE));
    }
}

// Knights, bishops, rooks and queens, landing on `target`; a pinned piece
// stays on the line through its king.
template <Color Us, class Sink>
CHESS_FI void knight_and_slider_moves(const GenState<Us>& g, Bitboard target, Sink& sink) {
    const Attacks& at = g.at;
    for (Bitboard b = g.p.knights(Us) & ~g.pinned; b;) {
        const int from = pop_lsb(b);
        sink.piece_moves(from, at.knight(from) & target, g.them);
    }
    for (Bitboard b = g.p.diag & g.us & ~g.pinned; b;) {
        const int from = pop_lsb(b);
        sink.piece_moves(from, at.bishop(from, g.occ) & target, g.them);
    }
    for (Bitboard b = g.p.orth & g.us & ~g.pinned; b;) {
        const int from = pop_lsb(b);
        sink.piece_moves(from, at.rook(from, g.occ) & target, g.them);
    }
    for (Bitboard b = (g.p.diag | g.p.orth) & g.us & g.pinned; b;) {  // pins are rare
        const int from = pop_lsb(b);
        Bitboard t = 0;
        if (g.p.diag & square_bb(from)) t |= at.bishop(from, g.occ);
        if (g.p.orth & square_bb(from)) t |= at.rook(from, g.occ);
        sink.piece_moves(from, t & target & at.line(g.ksq, from), g.them);
    }
}

// Pushes, captures and promotions landing on `target`: unpinned pawns move as
// sets, pinned ones one at a time along the line through their king.
template <Color Us, class Sink>
CHESS_FI void pawn_moves(const GenState<Us>& g, Bitboard target, Sink& sink) {
    constexpr Bitboard PROMO_RANK = Us == WHITE ? RANK_8 : RANK_1;
    constexpr Bitboard THIRD_RANK = Us == WHITE ? RANK_3 : RANK_6;
    constexpr int UP = PUSH<Us>;
    const Bitboard pawns = g.p.pawns & g.us, empty = ~g.occ, them = g.them;

    const Bitboard free = pawns & ~g.pinned;
    Bitboard push1 = forward<Us>(free) & empty;
    const Bitboard push2 = forward<Us>(push1 & THIRD_RANK) & empty & target;
    push1 &= target;
    const Bitboard cap_west = forward<Us>(west(free)) & them & target;
    const Bitboard cap_east = forward<Us>(east(free)) & them & target;
    sink.pawn_moves(push1 & ~PROMO_RANK, UP, QUIET);
    sink.pawn_moves(push2, 2 * UP, DOUBLE_PUSH);
    sink.pawn_moves(cap_west & ~PROMO_RANK, UP - 1, CAPTURE);
    sink.pawn_moves(cap_east & ~PROMO_RANK, UP + 1, CAPTURE);
    sink.promotions(push1 & PROMO_RANK, UP, PROMOTION);
    sink.promotions(cap_west & PROMO_RANK, UP - 1, PROMOTION | CAPTURE);
    sink.promotions(cap_east & PROMO_RANK, UP + 1, PROMOTION | CAPTURE);

    for (Bitboard b = pawns & g.pinned; b;) {
        const int from = pop_lsb(b);
        const Bitboard one = forward<Us>(square_bb(from)) & empty;
        const Bitboard two = forward<Us>(one & THIRD_RANK) & empty;
        const Bitboard t = (one | two | (g.at.pawn(Us, from) & them)) & target & g.at.line(g.ksq, from);
        pinned_pawn_moves<Us>(sink, from, t, them);
    }
}

// En passant: two pawns leave one rank at once, so king safety is tested on
// the resulting occupancy (this also covers checks the capture resolves).
template <Color Us, class Sink>
CHESS_FI void en_passant_moves(const GenState<Us>& g, Sink& sink) {
    constexpr Color Them = ~Us;
    const Position& p = g.p;
    const Attacks& at = g.at;
    const int cap = p.ep - PUSH<Us>;
    for (Bitboard b = at.pawn(Them, p.ep) & p.pawns & g.us; b;) {
        const int from = pop_lsb(b);
        const Bitboard o = g.occ ^ square_bb(from) ^ square_bb(p.ep) ^ square_bb(cap);
        const bool exposed = (at.pawn(Us, g.ksq) & g.their_pawns & ~square_bb(cap)) ||
                             (at.knight(g.ksq) & g.their_knights) || (at.bishop(g.ksq, o) & g.their_diag) ||
                             (at.rook(g.ksq, o) & g.their_orth);
        if (!exposed) sink.single(Move(from, p.ep, EP_CAPTURE));
    }
}

// The generator itself, inlined into generate_moves and count_moves.
template <Color Us, class Sink>
CHESS_FI void generate_moves_inline(const Position& p, const Attacks& at, Sink& sink) {
    const GenState<Us> g(p, at);
    if constexpr (requires { sink.note_checkers(g.checkers); }) sink.note_checkers(g.checkers);
    king_moves(g, sink);
    if (more_than_one(g.checkers)) return;  // double check: only the king moves

    // Other pieces must land on `target`: any non-own square, or when in
    // check, the checker or a square between it and the king.
    const Bitboard target = g.checkers ? (at.between(g.ksq, lsb(g.checkers)) | g.checkers) : ~g.us;
    knight_and_slider_moves(g, target, sink);
    pawn_moves(g, target, sink);
    if (p.ep != SQ_NONE) en_passant_moves(g, sink);
}

}  // namespace detail

template <Color Us, class Sink>
CHESS_HD void generate_moves(const Position& p, const Attacks& at, Sink& sink) {
    detail::generate_moves_inline<Us>(p, at, sink);
}

// The bulk count at the leaves, with the generator inlined so that the count
// stays in a register (through a sink passed by reference, every add would be
// a store and a reload). count_moves is one function of its own;
// count_moves_inline is for a caller that counts child after child (perft(2)),
// where the child just made stays in registers instead of going through memory.
template <Color Us>
CHESS_FI uint32_t count_moves_inline(const Position& p, const Attacks& at) {
    MoveCounter c;
    detail::generate_moves_inline<Us>(p, at, c);
    return c.count;
}
template <Color Us>
CHESS_LEAF uint32_t count_moves(const Position& p, const Attacks& at) {
    return count_moves_inline<Us>(p, at);
}

template <class Sink>
CHESS_FI void generate_moves(const Position& p, const Attacks& at, Sink& sink) {
    if (p.stm == WHITE)
        generate_moves<WHITE>(p, at, sink);
    else
        generate_moves<BLACK>(p, at, sink);
}

CHESS_FI uint32_t count_moves(const Position& p, const Attacks& at) {
    return p.stm == WHITE ? count_moves<WHITE>(p, at) : count_moves<BLACK>(p, at);
}

// Whether the side to move has a legal en-passant capture.
CHESS_HD inline bool has_legal_en_passant(const Position& p, const Attacks& at) {
    if (p.ep == SQ_NONE) return false;
    struct EpFinder {
        bool found = false;
        CHESS_FI void piece_moves(int, Bitboard, Bitboard) {}
        CHESS_FI void pawn_moves(Bitboard, int, int) {}
        CHESS_FI void promotions(Bitboard, int, int) {}
        CHESS_FI void single(Move m) { found |= m.is_en_passant(); }
    } f;
    generate_moves(p, at, f);
    return f.found;
}

// The position as FIDE 9.2 compares it: move counters cleared, and the e.p.
// square kept only when an e.p. capture is legal.
CHESS_HD inline Position canonical(const Position& p, const Attacks& at) {
    Position c = p;
    c.halfmove = 0;
    c.fullmove = 1;
    if (!has_legal_en_passant(p, at)) c.ep = SQ_NONE;
    return c;
}

}  // namespace chess
