// The statistics leaf of the breadth-first engine: instead of counting the
// last ply in bulk, its moves are classified (captures, castles, checks by
// kind, mates, ...: chess::leaf_stats, the CPU's leaf too) into per-thread
// counters, which the executor sums per warp and block before adding them to
// the run's STAT_COUNT counters. CHESS_HD, like level_work.hpp.
#pragma once

#include "chess/stats.hpp"
#include "level_work.hpp"

namespace gperft::gpu {

constexpr int STATS_BLOCK = 256;  // threads per block of the statistics kernel

// Item i = (parent, move) of a level at remaining depth Plies + 1: with
// Plies == 0 the item's own move is the last ply's (played and classified:
// depth-1 runs only); with Plies == 1 the child's moves are.
template <Color Us, int Plies>
struct LeafStats {
    static_assert(Plies == 0 || Plies == 1, "the statistics leaf covers the last one or two plies");
    const Position* parent_pos;
    const uint32_t* parent;
    const uint16_t* moves;
    Attacks at;
    CHESS_HD void operator()(uint64_t i, chess::PerftStats& s) const {
        const Move m(moves[i]);
        const Position c = chess::apply_move<Us>(parent_pos[parent[i]], m);
        if constexpr (Plies == 0) {
            chess::classify_move<Us>(m, c, at, s);
        } else {
            chess::leaf_stats<~Us>(c, at, s);
        }
    }
};

}  // namespace gperft::gpu
