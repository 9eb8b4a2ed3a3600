// Statistics runs of the breadth-first engine (perft --stats): every level
// carries a statistics row per position (the moves at the last ply of its
// subtree: captures, castles, checks by kind, mates, ...), the leaf
// classifies the last ply's moves (chess::leaf_stats, the CPU's leaf too)
// into its parent's row, and rows roll up, are looked up and stored like
// counts. Every per-item sum goes through accumulate_rows: the executor sums
// a warp's rows per run of equal keys, column by column, before adding them.
// CHESS_HD, like level_work.hpp.
#pragma once

#include "chess/stats.hpp"
#include "gpu/level_work.hpp"
#include "gpu/perft_tables.hpp"

namespace perftide::gpu {

constexpr int ROWS_BLOCK = 256;  // threads per block of the row accumulation kernel

// What an item adds to the statistics row `key` of its level's parents.
struct RowContribution {
    uint32_t key;
    chess::PerftStats row;
};

CHESS_FI uint64_t* row_of(uint64_t* rows, uint64_t i) { return rows + i * chess::STAT_COUNT; }
CHESS_FI const uint64_t* row_of(const uint64_t* rows, uint64_t i) { return rows + i * chess::STAT_COUNT; }

// Item i = (parent, move) of a level at remaining depth Plies + 1: with
// Plies == 0 the item's own move is the last ply's (played and classified);
// with Plies == 1 the child's moves are.
template <Color Us, int Plies>
struct LeafStats {
    static_assert(Plies == 0 || Plies == 1, "the statistics leaf covers the last one or two plies");
    const Position* parent_pos;
    const uint32_t* parent;
    const uint16_t* moves;
    Attacks at;
    CHESS_HD RowContribution operator()(uint64_t i) const {
        RowContribution r{parent[i], {}};
        const Move m(moves[i]);
        const Position c = chess::apply_move<Us>(parent_pos[parent[i]], m);
        if constexpr (Plies == 0) {
            chess::classify_move<Us>(m, c, at, r.row);
        } else {
            chess::leaf_stats<~Us>(c, at, r.row);
        }
        return r;
    }
};

// A child level's rows into its parents', a duplicate's read from its kept
// copy (rep, null when the level was not de-duplicated).
struct RollUpRows {
    const uint32_t* parent;
    const uint64_t* rows;
    const uint32_t* rep;
    CHESS_HD RowContribution operator()(uint64_t i) const {
        RowContribution r{parent[i], {}};
        const uint64_t* row = row_of(rows, rep ? rep[i] : i);
        for (int k = 0; k < chess::STAT_COUNT; ++k) r.row.c[k] = row[k];
        return r;
    }
};

// The batch roots' duplicates copy their kept copy's row.
struct ResolveDuplicateRows {
    const uint32_t* rep;
    uint64_t* rows;
    CHESS_HD void operator()(uint64_t i) const {
        if (rep[i] == uint32_t(i)) return;
        for (int k = 0; k < chess::STAT_COUNT; ++k) row_of(rows, i)[k] = row_of(rows, rep[i])[k];
    }
};

// The tables, as ProbeTable and StoreTable (level_keys.hpp) do for counts:
// a hit retires the position with the stored row; after the roll-up every
// position that was expanded stores its row, unless the error flag is up.
struct ProbeRows {
    const Key128* keys;
    uint32_t* counts;
    uint64_t* rows;
    RowTable table;
    CHESS_HD Contribution operator()(uint64_t i) const {
        if (counts[i] == 0 || !row_probe(table, keys[i], row_of(rows, i))) return {0, 0};
        counts[i] = 0;
        return {0, 1};
    }
};

struct StoreRows {
    const Key128* keys;
    const uint32_t* counts;
    const uint64_t* rows;
    RowTable table;
    const uint32_t* error;
    CHESS_HD Contribution operator()(uint64_t i) const {
        if (*error || counts[i] == 0 || row_of(rows, i)[chess::STAT_NODES] == 0) return {0, 0};
        row_store(table, keys[i], row_of(rows, i));
        return {0, 1};
    }
};

}  // namespace perftide::gpu
