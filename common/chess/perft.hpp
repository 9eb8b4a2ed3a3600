// Recursive perft with bulk counting at the last ply: at depth 1 the legal
// moves are counted, not played. Usable by a GPU thread for the last plies.
#pragma once

#include "chess/movegen.hpp"

namespace chess {

// A sink that plays each move as it is generated and bulk-counts the reply
// moves: perft(2) without materialising a move list. The children are only
// counted, so they keep the parent's move counters, and every move but
// castling and en passant is played by a make that knows the mover's sets
// once per call, not by apply_move's tests per move. The generator is
// inlined into the count of a knight's or slider's child, the commonest kind;
// the other children go through one out-of-line copy (count_plain_call), so
// the sink holds two copies of the generator, not one per call site.
template <Color Us>
struct CountRepliesSink {
    static constexpr Color Them = ~Us;
    const Position& p;
    const Attacks& at;
    uint64_t nodes = 0;

    CHESS_FI void single(Move m) { nodes += count_moves<Them>(apply_move<Us>(p, m), at); }

    // The child after a move from `fb` to `tb` that no special rule touches:
    // whatever stood on `tb` is captured, the mover's sets toggle by `moved`
    // (pawns, diag, orth), castling rights go with either square, and with
    // the king all of ours; the e.p. square is `ep`. A promotion is the
    // masks {fb, tb or 0, tb or 0}: the pawn leaves, the new piece's sets
    // gain `tb` (a knight: neither).
    template <bool King>
    CHESS_FI void count_plain(Bitboard fb, Bitboard tb, const Bitboard (&moved)[3], int ep = SQ_NONE) {
        constexpr Bitboard BACK_RANK = Us == WHITE ? RANK_1 : RANK_8;
        const Bitboard ft = fb | tb;
        Position c = p;
        c.color[Them] &= ~tb;
        c.color[Us] ^= ft;
        c.pawns = (p.pawns & ~tb) ^ (moved[0] & ft);
        c.diag = (p.diag & ~tb) ^ (moved[1] & ft);
        c.orth = (p.orth & ~tb) ^ (moved[2] & ft);
        c.castle_rooks = p.castle_rooks & ~(King ? ft | BACK_RANK : ft);
        if (King) c.king[Us] = uint8_t(lsb(tb));
        c.ep = uint8_t(ep);
        c.stm = Them;
        nodes += count_moves_inline<Them>(c, at);
    }
    template <bool King>
    CHESS_LEAF void count_plain_call(Bitboard fb, Bitboard tb, const Bitboard (&moved)[3], int ep = SQ_NONE) {
        count_plain<King>(fb, tb, moved, ep);
    }
    CHESS_FI void piece_moves(int from, Bitboard targets, Bitboard) {
        const Bitboard fb = square_bb(from);
        if (from == p.king[Us]) {
            constexpr Bitboard moved[3] = {0, 0, 0};
            while (targets) count_plain_call<true>(fb, square_bb(pop_lsb(targets)), moved);
            return;
        }
        const Bitboard moved[3] = {0, (p.diag & fb) ? ~Bitboard(0) : 0, (p.orth & fb) ? ~Bitboard(0) : 0};
        while (targets) count_plain<false>(fb, square_bb(pop_lsb(targets)), moved);
    }
    CHESS_FI void pawn_moves(Bitboard targets, int delta, int flag) {
        constexpr Bitboard moved[3] = {~Bitboard(0), 0, 0};
        while (targets) {
            const int to = pop_lsb(targets);
            count_plain_call<false>(square_bb(to - delta), square_bb(to), moved,
                                    flag == DOUBLE_PUSH ? ep_after_double_push<Us>(p, to) : SQ_NONE);
        }
    }
    CHESS_FI void promotions(Bitboard targets, int delta, int) {
        while (targets) {
            const int to = pop_lsb(targets);
            const Bitboard fb = square_bb(to - delta), tb = square_bb(to);
            for (int piece = 3; piece >= 0; --piece) {  // queen, rook, bishop, knight
                const Bitboard moved[3] = {fb, (piece & 1) ? tb : 0, (piece & 2) ? tb : 0};
                count_plain_call<false>(fb, tb, moved);
            }
        }
    }
};

template <Color Us>
CHESS_HD uint64_t perft(const Position& p, const Attacks& at, int depth) {
    if (depth <= 1) return depth == 1 ? count_moves<Us>(p, at) : 1;
    if (depth == 2) {
        CountRepliesSink<Us> sink{p, at};
        generate_moves<Us>(p, at, sink);
        return sink.nodes;
    }
    MoveList list;
    generate_moves<Us>(p, at, list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.size; ++i) nodes += perft<~Us>(apply_move<Us>(p, list.moves[i]), at, depth - 1);
    return nodes;
}

CHESS_FI uint64_t perft(const Position& p, const Attacks& at, int depth) {
    return p.stm == WHITE ? perft<WHITE>(p, at, depth) : perft<BLACK>(p, at, depth);
}

}  // namespace chess
