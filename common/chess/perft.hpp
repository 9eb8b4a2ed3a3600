// Recursive perft with bulk counting at the last ply: at depth 1 the legal
// moves are counted, not played. Usable by a GPU thread for the last plies.
#pragma once

#include "chess/movegen.hpp"

namespace chess {

template <Color Us>
CHESS_HD uint64_t perft(const Position& p, const Attacks& at, int depth) {
    if (depth <= 1) return depth == 1 ? count_moves<Us>(p, at) : 1;
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
