// How a position stands, cheaply: whether the side to move has any legal
// move (checkmate and stalemate tests without counting every move), and
// whether the material left rules out checkmate for both sides.
#pragma once

#include "chess/movegen.hpp"

namespace chess {

// Whether the side to move has a legal move. Cheaper than counting: it stops
// at the first king step or unpinned piece move it finds and counts exactly
// only when those fail (in check, or every piece pinned or blocked).
template <Color Us>
CHESS_HD bool has_legal_move(const Position& p, const Attacks& at) {
    constexpr Color Them = ~Us;
    const Bitboard us = p.color[Us], them = p.color[Them], occ = us | them;
    const int ksq = p.king[Us];
    const Bitboard occ_without_king = occ ^ square_bb(ksq);
    for (Bitboard steps = at.king(ksq) & ~us; steps;)
        if (!attackers_to(p, at, pop_lsb(steps), occ_without_king, Them)) return true;

    const Bitboard check = attackers_to(p, at, ksq, occ, Them);
    if (more_than_one(check)) return false;
    if (check) return count_moves<Us>(p, at) != 0;

    // Not in check: any pseudo-legal move of an unpinned piece is legal.
    Bitboard pinned = 0;
    for (Bitboard snipers = ((at.rook_empty(ksq) & p.orth) | (at.bishop_empty(ksq) & p.diag)) & them; snipers;) {
        const Bitboard blockers = at.between(ksq, pop_lsb(snipers)) & occ;
        if (blockers && !more_than_one(blockers)) pinned |= blockers & us;
    }
    for (Bitboard b = p.knights(Us) & ~pinned; b;)
        if (at.knight(pop_lsb(b)) & ~us) return true;
    const Bitboard free_pawns = p.pawns & us & ~pinned;
    if ((forward<Us>(free_pawns) & ~occ) | (pawn_attacks_bb<Us>(free_pawns) & them)) return true;
    for (Bitboard b = (p.diag | p.orth) & us; b;) {
        const int from = pop_lsb(b);
        Bitboard t = 0;
        if (p.diag & square_bb(from)) t |= at.bishop(from, occ);
        if (p.orth & square_bb(from)) t |= at.rook(from, occ);
        t &= ~us;
        if (pinned & square_bb(from)) t &= at.line(ksq, from);
        if (t) return true;
    }
    return count_moves<Us>(p, at) != 0;  // pinned pawns, en passant
}

CHESS_FI bool has_legal_move(const Position& p, const Attacks& at) {
    return p.stm == WHITE ? has_legal_move<WHITE>(p, at) : has_legal_move<BLACK>(p, at);
}

constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

// Neither side can ever checkmate, whatever the position of the men: no
// pawns, rooks or queens, and at most one knight or bishop in all, or only
// bishops, all on squares of one colour (FIDE 5.2.2 material cases).
CHESS_FI bool insufficient_material(Bitboard pawns, Bitboard orth, Bitboard bishops, Bitboard knights) {
    if (pawns | orth) return false;
    if (!more_than_one(bishops | knights)) return true;
    return !knights && (!(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES));
}

CHESS_FI bool insufficient_material(const Position& p) {
    return insufficient_material(p.pawns, p.orth, p.bishops(), p.knights());
}

}  // namespace chess
