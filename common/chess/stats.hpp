// Perft statistics: what each move of the last ply is (capture, en passant,
// castle, promotion, check of which kind, mate, stalemate), counted the way the
// chessprogramming "Perft Results" tables and the Grand Chess Tree count them.
// One host/device leaf counts them from the move sets (leaf_stats); the plain
// definition it is tested against plays every move (classify_move).
#pragma once

#include "chess/count.hpp"
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

// The two widths of one row: a device's or a thread's 64-bit counters, and
// the 128-bit totals every engine returns (one row per ply).
using PerftStats = BasicPerftStats<uint64_t>;
using StatsTotal = BasicPerftStats<u128>;

// The square of the piece a move puts down: the rook's for castling.
CHESS_FI int placed_square(Move m) {
    if (m.is_castle()) return castle_rook_to(m.from(), m.flag() == KING_CASTLE);
    return m.to();
}

// Counts move m into s, given what the position it leads to is: `check`
// holds the men that give check there, `can_move` whether the side to move
// there has a legal move.
CHESS_FI void count_move(Move m, Bitboard check, bool can_move, PerftStats& s) {
    ++s.c[STAT_NODES];
    s.c[STAT_CAPTURES] += m.is_capture();
    s.c[STAT_EN_PASSANT] += m.is_en_passant();
    s.c[STAT_CASTLES] += m.is_castle();
    s.c[STAT_PROMOTIONS] += m.is_promotion();
    if (!check) {
        s.c[STAT_STALEMATES] += !can_move;
        return;
    }
    const bool direct = check & square_bb(placed_square(m));
    const int kind = more_than_one(check) ? (direct ? DIRECT_DISCOVERED : DOUBLE_DISCOVERED)
                                          : (direct ? DIRECT : SINGLE_DISCOVERED);
    ++s.c[(can_move ? STAT_CHECKS : STAT_MATES) + kind];
}

// Counts move m of side Us, whose result is `child`, into s: the plain
// definition, every fact looked up on the child.
template <Color Us>
CHESS_HD void classify_move(Move m, const Position& child, const Attacks& at, PerftStats& s) {
    count_move(m, attackers_to(child, at, child.king[~Us], child.occupied(), Us), has_legal_move<~Us>(child, at), s);
}

CHESS_FI void classify_move(Move m, const Position& child, const Attacks& at, PerftStats& s) {
    if (child.stm == BLACK)
        classify_move<WHITE>(m, child, at, s);
    else
        classify_move<BLACK>(m, child, at, s);
}

namespace detail {

// The statistics leaf: a generator sink that counts the last ply's moves from
// their sets, as MoveCounter does, and lists for playing afterwards only the
// moves that give check (for the mate test and the kind of check), castling
// and e.p. (rare, and they move two men: their checks and the enemy's
// remaining men are looked at on the position they lead to), and the
// non-checking moves after which the enemy might have no move (the
// stalemate test).
//
// A move gives check directly when the man it puts down lands on a check
// square of its kind (the squares from which that kind attacks the enemy
// king, given the occupancy: the mover's own square never shields the king
// from its target, or the enemy would stand in check now), and by discovery
// when it leaves a square of `discover` (our men alone between one of our
// sliders and the enemy king) for a square off that line.
//
// `mobile` holds enemy men that have a move now and are not pinned: pawns
// with a free push square, knights and sliders with a target. After a move
// of ours that gives no check, such a man keeps a move (a knight's targets
// only grow, a slider's ray still ends on a square it can take) unless the
// move takes it, blocks its push (lands on its push square), or pins it: by
// the man put down (the enemy man alone between it and the king) or by
// opening the line through the square left. So a move loses at most three of
// them (`many`: no move can stalemate), and one that leaves a man of
// `mobile` off those squares cannot stalemate.
template <Color Us>
struct StatsSink {
    static constexpr Color Them = ~Us;
    const Position& p;
    const Attacks& at;
    Bitboard them, occ;
    int ksq;  // the enemy king
    Bitboard check_pawn, check_knight, check_diag, check_orth, check_any;
    Bitboard discover = 0, mobile = 0;
    bool many = false;
    uint64_t nodes = 0, captures = 0, promoted = 0, castled = 0;
    // Moves to play: those to classify from the front (`played`), those to
    // test for stalemate from the back (`tested`); together at most all moves.
    uint16_t list[MAX_MOVES];
    int played = 0, tested = 0;
    Bitboard checked_by = 0;  // the men checking our king (the generator's, noted)

    CHESS_FI StatsSink(const Position& pos, const Attacks& a)
        : p(pos), at(a), them(pos.color[Them]), occ(pos.occupied()), ksq(pos.king[Them]),
          check_pawn(a.pawn(Them, ksq)), check_knight(a.knight(ksq)), check_diag(a.bishop(ksq, occ)),
          check_orth(a.rook(ksq, occ)), check_any(check_knight | check_diag | check_orth) {
        const Bitboard us = pos.color[Us];
        Bitboard pinned = 0;
        for (Bitboard snipers = ((a.rook_empty(ksq) & pos.orth) | (a.bishop_empty(ksq) & pos.diag)) & us; snipers;) {
            const Bitboard blockers = a.between(ksq, pop_lsb(snipers)) & occ;
            if (more_than_one(blockers)) continue;
            discover |= blockers & us;
            pinned |= blockers & them;
        }
        find_mobile(them & ~pinned);
    }

    // Fills `mobile` from the unpinned enemy men `free` and sets `many`,
    // stopping once it holds: pawns first (one set), then knights, then sliders.
    CHESS_FI void find_mobile(Bitboard free) {
        mobile = p.pawns & free & forward<Us>(~occ);
        if ((many = enough())) return;
        for (Bitboard b = p.knights(Them) & free; b;) {
            const int sq = pop_lsb(b);
            if (at.knight(sq) & ~them) mobile |= square_bb(sq);
        }
        if ((many = enough())) return;
        for (Bitboard b = (p.diag | p.orth) & free; b;) {
            const int sq = pop_lsb(b);
            Bitboard t = 0;
            if (p.diag & square_bb(sq)) t |= at.bishop(sq, occ);
            if (p.orth & square_bb(sq)) t |= at.rook(sq, occ);
            if (t & ~them) mobile |= square_bb(sq);
        }
        many = enough();
    }

    // Whether every move leaves a man of `mobile`: one is lost on the target
    // square, two more at most by pins, and only men on the king's lines can
    // be pinned.
    CHESS_FI bool enough() const {
        const int off = popcount(mobile & ~(at.rook_empty(ksq) | at.bishop_empty(ksq)));
        return off >= 2 || popcount(mobile) >= 4;
    }

    // The targets of a man leaving `from` that open a line to the enemy king.
    CHESS_FI Bitboard discovering(int from, Bitboard targets) const {
        return (discover & square_bb(from)) ? targets & ~at.line(ksq, from) : 0;
    }

    // Whether a non-checking move to `to` might stalemate, `keep` being the
    // men of `mobile` off the line through the square it leaves.
    CHESS_FI bool may_stalemate(Bitboard keep, int to) const {
        const Bitboard tb = square_bb(to);
        return !(keep & ~(tb | forward<Us>(tb) | at.between(ksq, to)));
    }

    CHESS_FI int capture_flag(int to, int flag) const { return (them & square_bb(to)) ? flag | CAPTURE : flag; }

    // Lists the non-checking moves from `from` to `quiet` that might stalemate.
    // Off the line through `from`, a target takes at most two: with three
    // left, none can.
    CHESS_FI void stalemate_candidates(int from, Bitboard quiet, int flag) {
        const Bitboard keep = mobile & ~at.line(ksq, from);
        for (Bitboard b = popcount(keep) >= 3 ? 0 : quiet; b;) {
            const int to = pop_lsb(b);
            if (may_stalemate(keep, to)) list[MAX_MOVES - ++tested] = Move(from, to, capture_flag(to, flag)).bits;
        }
    }

    // Non-checking moves from `from` (kind `flag`, CAPTURE added on enemy men)
    // are counted; checking ones listed.
    CHESS_FI void moves_from(int from, Bitboard quiet, Bitboard checks, int flag) {
        nodes += popcount(quiet);
        captures += popcount(quiet & them);
        if (!many) stalemate_candidates(from, quiet, flag);
        while (checks) {
            const int to = pop_lsb(checks);
            list[played++] = Move(from, to, capture_flag(to, flag)).bits;
        }
    }

    CHESS_FI void piece_moves(int from, Bitboard targets, Bitboard) {
        const Bitboard fb = square_bb(from);
        if (!((targets & check_any) | (discover & fb))) return moves_from(from, targets, 0, QUIET);  // most pieces
        Bitboard direct = 0;
        if (from != p.king[Us]) {
            const bool diag = p.diag & fb, orth = p.orth & fb;
            direct = diag || orth ? (diag ? check_diag : 0) | (orth ? check_orth : 0) : check_knight;
        }
        const Bitboard checks = (targets & direct) | discovering(from, targets);
        moves_from(from, targets & ~checks, checks, QUIET);
    }

    // Pawn moves to each target t from t - delta; flag QUIET, DOUBLE_PUSH or CAPTURE.
    CHESS_FI void pawn_moves(Bitboard targets, int delta, int flag) {
        if (!targets) return;
        Bitboard checks = targets & check_pawn;
        for (Bitboard d = discover ? (delta > 0 ? targets >> delta : targets << -delta) & discover : 0; d;) {
            const int from = pop_lsb(d);
            checks |= discovering(from, square_bb(from + delta));
        }
        if (many && !checks) {  // the common case: one count
            nodes += popcount(targets);
            if (flag == CAPTURE) captures += popcount(targets);
            return;
        }
        for (Bitboard b = targets; b;) {
            const int to = pop_lsb(b);
            const Bitboard tb = square_bb(to);
            moves_from(to - delta, tb & ~checks, tb & checks, flag & ~CAPTURE);
        }
    }

    // Four promotions to each target: the new man's check squares are looked
    // up with the pawn's square empty (it may stand between target and king).
    CHESS_FI void promotions(Bitboard targets, int delta, int flag) {
        while (targets) {
            const int to = pop_lsb(targets), from = to - delta;
            const Bitboard tb = square_bb(to), o = occ ^ square_bb(from);
            const bool disc = discovering(from, tb);
            const bool diag = at.bishop(ksq, o) & tb, orth = at.rook(ksq, o) & tb, knight = check_knight & tb;
            const bool stale = !many && may_stalemate(mobile & ~at.line(ksq, from), to);
            for (int piece = 3; piece >= 0; --piece) {  // queen, rook, bishop, knight
                const bool check = disc || (piece == 0 ? knight : ((piece & 1) && diag) || ((piece & 2) && orth));
                const uint16_t m = Move(from, to, flag | piece).bits;
                if (check) {
                    list[played++] = m;
                    continue;
                }
                ++nodes;
                ++promoted;
                captures += (flag & CAPTURE) != 0;
                if (stale) list[MAX_MOVES - ++tested] = m;
            }
        }
    }

    CHESS_FI void single(Move m) {
        if (m.is_castle() && quiet_castle(m)) {
            ++nodes;
            ++castled;
            return;
        }
        list[played++] = m.bits;
    }

    // Whether castling surely gives no check and leaves the enemy a move.
    // Only the rook can check directly, along its new square's rank or file;
    // a line opens only through the two squares left, each alone on its line
    // (`discover`) unless the enemy king stands on our back rank. Of `mobile`,
    // castling can block the pushes onto the king's and the rook's new
    // squares and pin men on the lines through the squares left (the rook
    // pins nothing: the enemy king is off its rank and file).
    CHESS_FI bool quiet_castle(Move m) const {
        const int from = m.from(), king_side = m.flag() == KING_CASTLE;
        const int rook_to = castle_rook_to(from, king_side);
        if ((at.rook_empty(rook_to) & square_bb(ksq)) || (discover & (square_bb(from) | square_bb(m.to()))) ||
            rank_of(ksq) == rank_of(from))
            return false;
        const Bitboard placed = square_bb(castle_king_to(from, king_side)) | square_bb(rook_to);
        return mobile & ~forward<Us>(placed) & ~at.line(ksq, from) & ~at.line(ksq, m.to());
    }

    CHESS_FI void note_checkers(Bitboard c) { checked_by = c; }

    // The enemy king's steps that none of our men attacks now, the king
    // taken off the board (so that a line through it counts); only our men
    // that can reach a square next to it are looked at.
    CHESS_FI Bitboard escape_squares() const {
        const Bitboard steps = at.king(ksq) & ~them;
        if (!steps) return 0;
        const Bitboard us = p.color[Us], o = occ ^ square_bb(ksq);
        Bitboard attacked = pawn_attacks_bb<Us>(p.pawns & us) | at.king(p.king[Us]);
        for (Bitboard b = p.knights(Us) & at.knight_near_king(ksq); b;) attacked |= at.knight(pop_lsb(b));
        for (Bitboard b = p.diag & us & at.diag_near_king(ksq); b;) attacked |= at.bishop(pop_lsb(b), o);
        for (Bitboard b = p.orth & us & at.orth_near_king(ksq); b;) attacked |= at.rook(pop_lsb(b), o);
        return steps & ~attacked;
    }

    // A checking move m, neither castling nor e.p.: sets `check` to a
    // stand-in of its checkers as count_move reads them (the target when the
    // man put down checks, the square left when a line opens), and returns
    // whether the enemy king surely keeps a step of `escapes`: one that the
    // man put down does not attack (the king off the board), not the target,
    // and off every line through the square left (the only lines that open).
    CHESS_FI bool escapes_check(Move m, Bitboard escapes, Bitboard& check) const {
        const int from = m.from(), to = m.to();
        const Bitboard fb = square_bb(from), tb = square_bb(to), o = (occ ^ fb ^ square_bb(ksq)) | tb;
        const int promo = m.is_promotion() ? m.promotion() : NO_PIECE_TYPE;
        const bool diag = promo ? promo == BISHOP || promo == QUEEN : (p.diag & fb) != 0;
        const bool orth = promo ? promo == ROOK || promo == QUEEN : (p.orth & fb) != 0;
        Bitboard attacks = (diag ? at.bishop(to, o) : 0) | (orth ? at.rook(to, o) : 0);
        if (promo == KNIGHT)
            attacks = at.knight(to);
        else if (!diag && !orth)
            attacks = (p.pawns & fb) ? at.pawn(Us, to) : from == p.king[Us] ? at.king(to) : at.knight(to);
        check = ((attacks & square_bb(ksq)) ? tb : 0) | (discovering(from, tb) ? fb : 0);
        return escapes & ~attacks & ~tb & ~(at.rook_empty(from) | at.bishop_empty(from));
    }

    // After castling or e.p. (`child`, no check given), whether a man of
    // `mobile` surely keeps a move: not taken, its push square not newly
    // occupied, not pinned in the child (the pins found as in the constructor).
    CHESS_FI bool keeps_move(const Position& child) const {
        const Bitboard placed = child.color[Us] & ~p.color[Us], o = child.occupied();
        Bitboard keep = mobile & child.color[Them] & ~forward<Us>(placed);
        for (Bitboard snipers = ((at.rook_empty(ksq) & child.orth) | (at.bishop_empty(ksq) & child.diag)) &
                                child.color[Us];
             keep && snipers;) {
            const Bitboard blockers = at.between(ksq, pop_lsb(snipers)) & o;
            if (!more_than_one(blockers)) keep &= ~blockers;
        }
        return keep;
    }
};

}  // namespace detail

// What a node of perft_stats tells the ply above: the men checking the side
// to move, and its number of legal moves.
struct NodeFacts {
    Bitboard checkers;
    uint32_t moves;
};

// The statistics of p's legal moves (side Us to move) added to s: the same
// counts as classify_move of every move, most of them without playing it.
template <Color Us>
CHESS_LEAF NodeFacts leaf_stats(const Position& p, const Attacks& at, PerftStats& s) {
    detail::StatsSink<Us> sink(p, at);
    detail::generate_moves_inline<Us>(p, at, sink);
    s.c[STAT_NODES] += sink.nodes;
    s.c[STAT_CAPTURES] += sink.captures;
    s.c[STAT_PROMOTIONS] += sink.promoted;
    s.c[STAT_CASTLES] += sink.castled;
    // A check the enemy king can step out of is no mate: counted unplayed.
    const Bitboard escapes = sink.played ? sink.escape_squares() : 0;
    // One loop over both lists, so that the device inlines one copy of its body.
    for (int i = 0; i < sink.played + sink.tested; ++i) {
        const bool counted = i >= sink.played;  // listed for the stalemate test only, gives no check
        const Move m(sink.list[counted ? MAX_MOVES - 1 - (i - sink.played) : i]);
        Bitboard stand_in;
        if (!counted && !m.is_castle() && !m.is_en_passant() && sink.escapes_check(m, escapes, stand_in)) {
            count_move(m, stand_in, true, s);
            continue;
        }
        const Position child = apply_move<Us>(p, m);
        const Bitboard check = counted ? 0 : attackers_to(child, at, sink.ksq, child.occupied(), Us);
        // Castling and e.p. that give no check and surely leave the enemy a move.
        const bool moves = !counted && !check && (m.is_castle() || m.is_en_passant()) && sink.keeps_move(child);
        const bool can_move = moves || has_legal_move<~Us>(child, at);
        if (counted)
            s.c[STAT_STALEMATES] += !can_move;
        else
            count_move(m, check, can_move, s);
    }
    return {sink.checked_by, uint32_t(sink.nodes + sink.played)};
}

CHESS_FI void leaf_stats(const Position& p, const Attacks& at, PerftStats& s) {
    if (p.stm == WHITE)
        leaf_stats<WHITE>(p, at, s);
    else
        leaf_stats<BLACK>(p, at, s);
}

// The last two plies below a node: each move played as it is generated and
// counted from the facts its leaf finds, without a move list.
template <Color Us>
struct StatsRepliesSink : MoveExpander<StatsRepliesSink<Us>> {
    const Position& p;
    const Attacks& at;
    PerftStats* rows;
    uint32_t moves = 0;

    CHESS_FI StatsRepliesSink(const Position& pos, const Attacks& a, PerftStats* r) : p(pos), at(a), rows(r) {}
    CHESS_FI void add(Move m) {
        const NodeFacts f = leaf_stats<~Us>(apply_move<Us>(p, m), at, rows[1]);
        count_move(m, f.checkers, f.moves != 0, rows[0]);
        ++moves;
    }
};

// Statistics of every ply below p down to `depth`: rows[k] receives the
// moves made at ply k + 1 (rows[depth - 1] the last ply's). The last ply is
// the leaf's; a move above it is counted from the facts of the node it leads
// to, which that node's generation finds anyway.
template <Color Us>
CHESS_HD NodeFacts perft_stats(const Position& p, const Attacks& at, int depth, PerftStats* rows) {
    if (depth <= 1) return depth == 1 ? leaf_stats<Us>(p, at, rows[0]) : NodeFacts{0, 0};
    if (depth == 2) {
        StatsRepliesSink<Us> sink(p, at, rows);
        generate_moves<Us>(p, at, sink);
        return {checkers(p, at), sink.moves};
    }
    MoveList list;
    generate_moves<Us>(p, at, list);
    for (int i = 0; i < list.size; ++i) {
        const Position child = apply_move<Us>(p, list.moves[i]);
        const NodeFacts f = perft_stats<~Us>(child, at, depth - 1, rows + 1);
        count_move(list.moves[i], f.checkers, f.moves != 0, rows[0]);
    }
    return {checkers(p, at), uint32_t(list.size)};
}

CHESS_FI void perft_stats(const Position& p, const Attacks& at, int depth, PerftStats* rows) {
    if (p.stm == WHITE)
        perft_stats<WHITE>(p, at, depth, rows);
    else
        perft_stats<BLACK>(p, at, depth, rows);
}

}  // namespace chess
