// Perft statistics: what each move of the last ply is (capture, en passant,
// castle, promotion, check of which kind, mate, stalemate), counted the way the
// chessprogramming "Perft Results" tables and the Grand Chess Tree count them.
// One host/device classifier, so every engine counts the same way.
#pragma once

#include "chess/terminal.hpp"

namespace chess {

// Counter slots. A check is one of four kinds (CheckKind), counted apart for
// checks that leave the opponent a move and for checkmates.
constexpr int STAT_NODES = 0;
constexpr int STAT_CAPTURES = 1;  // en passant and capturing promotions included
constexpr int STAT_EN_PASSANT = 2;
constexpr int STAT_CASTLES = 3;
constexpr int STAT_PROMOTIONS = 4;  // every promotion move (four per pawn step)
constexpr int STAT_CHECKS = 5;      // + CheckKind: checks that are not mate
constexpr int STAT_MATES = 9;       // + CheckKind: checkmates
constexpr int STAT_STALEMATES = 13;
constexpr int STAT_COUNT = 14;

// Who gives check, judged by the square of the piece the move put down (the
// rook's square for castling, the new piece's for a promotion):
//   DIRECT             one checker, standing on that square;
//   SINGLE_DISCOVERED  one checker elsewhere (a line the move opened);
//   DIRECT_DISCOVERED  two checkers, one of them on that square;
//   DOUBLE_DISCOVERED  two checkers, neither on it (en passant opens two lines).
enum CheckKind : int { DIRECT = 0, SINGLE_DISCOVERED = 1, DIRECT_DISCOVERED = 2, DOUBLE_DISCOVERED = 3 };

template <class T>
struct BasicPerftStats {
    T c[STAT_COUNT] = {};

    template <class U>
    CHESS_HD BasicPerftStats& operator+=(const BasicPerftStats<U>& o) {
        for (int i = 0; i < STAT_COUNT; ++i) c[i] += o.c[i];
        return *this;
    }
    CHESS_HD T checks_without_mate() const { return c[STAT_CHECKS] + c[STAT_CHECKS + 1] + c[STAT_CHECKS + 2] + c[STAT_CHECKS + 3]; }
    CHESS_HD T checkmates() const { return c[STAT_MATES] + c[STAT_MATES + 1] + c[STAT_MATES + 2] + c[STAT_MATES + 3]; }

    // The chessprogramming table's columns. Its "Checks" counts every checking
    // move, mates included; its "Discovery Checks" and "Double Checks" count
    // checks that are not mate (single discovered; two checkers).
    CHESS_HD T cpw_checks() const { return checks_without_mate() + checkmates(); }
    CHESS_HD T cpw_discovery_checks() const { return c[STAT_CHECKS + SINGLE_DISCOVERED]; }
    CHESS_HD T cpw_double_checks() const { return c[STAT_CHECKS + DIRECT_DISCOVERED] + c[STAT_CHECKS + DOUBLE_DISCOVERED]; }
};

using PerftStats = BasicPerftStats<uint64_t>;

// The square of the piece a move puts down: the rook's for castling.
CHESS_FI int placed_square(Move m) {
    if (m.is_castle()) return castle_rook_to(m.from(), m.flag() == KING_CASTLE);
    return m.to();
}

// Counts move m of side Us, whose result is `child`, into s.
template <Color Us>
CHESS_HD void classify_move(Move m, const Position& child, const Attacks& at, PerftStats& s) {
    ++s.c[STAT_NODES];
    s.c[STAT_CAPTURES] += m.is_capture();
    s.c[STAT_EN_PASSANT] += m.is_en_passant();
    s.c[STAT_CASTLES] += m.is_castle();
    s.c[STAT_PROMOTIONS] += m.is_promotion();
    const Bitboard check = attackers_to(child, at, child.king[~Us], child.occupied(), Us);
    const bool can_move = has_legal_move<~Us>(child, at);
    if (!check) {
        s.c[STAT_STALEMATES] += !can_move;
        return;
    }
    const bool direct = check & square_bb(placed_square(m));
    const int kind = more_than_one(check) ? (direct ? DIRECT_DISCOVERED : DOUBLE_DISCOVERED)
                                          : (direct ? DIRECT : SINGLE_DISCOVERED);
    ++s.c[(can_move ? STAT_CHECKS : STAT_MATES) + kind];
}

CHESS_FI void classify_move(Move m, const Position& child, const Attacks& at, PerftStats& s) {
    if (child.stm == BLACK)
        classify_move<WHITE>(m, child, at, s);
    else
        classify_move<BLACK>(m, child, at, s);
}

// Statistics of every ply below p down to `depth`: rows[k] receives the
// moves made at ply k + 1 (rows[depth - 1] the last ply's).
template <Color Us>
CHESS_HD void perft_stats(const Position& p, const Attacks& at, int depth, PerftStats* rows) {
    if (depth <= 0) return;
    MoveList list;
    generate_moves<Us>(p, at, list);
    for (int i = 0; i < list.size; ++i) {
        const Position child = apply_move<Us>(p, list.moves[i]);
        classify_move<Us>(list.moves[i], child, at, rows[0]);
        if (depth > 1) perft_stats<~Us>(child, at, depth - 1, rows + 1);
    }
}

CHESS_FI void perft_stats(const Position& p, const Attacks& at, int depth, PerftStats* rows) {
    if (p.stm == WHITE)
        perft_stats<WHITE>(p, at, depth, rows);
    else
        perft_stats<BLACK>(p, at, depth, rows);
}

}  // namespace chess
