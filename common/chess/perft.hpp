// Recursive perft with bulk counting at the last ply: at depth 1 the legal
// moves are counted, not played. Usable by a GPU thread for the last plies.
#pragma once

#include "chess/movegen.hpp"

namespace chess {

// A sink that plays each move as it is generated and bulk-counts the reply
// moves: perft(2) without materialising a move list.
template <Color Us>
struct CountRepliesSink {
    const Position& p;
    const Attacks& at;
    uint64_t nodes = 0;

    CHESS_FI void single(Move m) { nodes += count_moves<~Us>(apply_move<Us>(p, m), at); }
    CHESS_FI void piece_moves(int from, Bitboard targets, Bitboard them) {
        while (targets) {
            const int to = pop_lsb(targets);
            single(Move(from, to, (them & square_bb(to)) ? CAPTURE : QUIET));
        }
    }
    CHESS_FI void pawn_moves(Bitboard targets, int delta, int flag) {
        while (targets) {
            const int to = pop_lsb(targets);
            single(Move(to - delta, to, flag));
        }
    }
    CHESS_FI void promotions(Bitboard targets, int delta, int flag) {
        while (targets) {
            const int to = pop_lsb(targets);
            for (int piece = 3; piece >= 0; --piece) single(Move(to - delta, to, flag | piece));
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
