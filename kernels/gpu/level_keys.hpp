// Per-item work of the keyed levels: Zobrist keys of the roots, duplicate
// removal within a level (sort by key, runs of identical positions, each
// duplicate linked to its kept copy) and the transposition-table probe and
// store. CHESS_HD and free of CUDA calls, like level_work.hpp: the device
// kernels and the host pipeline run the same code.
#pragma once

#include "chess/identity.hpp"
#include "gpu/level_work.hpp"
#include "gpu/perft_tables.hpp"

namespace perftide::gpu {

// Counters a run keeps in its arena (one array, read back once per batch).
constexpr int COUNTER_TABLE_HITS = 0;
constexpr int COUNTER_TABLE_STORES = 1;
constexpr int COUNTER_DUPLICATES = 2;
constexpr int RUN_COUNTERS = 3;

struct RootKeys {
    const Position* pos;
    Key128* keys;
    Zobrist zobrist;
    CHESS_HD void operator()(uint64_t i) const { keys[i] = zobrist.key(pos[i]); }
};

// ---------------------------------------------------------------------------
// Duplicate removal. The level's positions are sorted by key.hi (a stable
// sort, so equal keys keep their level order), a position starts a new run
// unless it is identical to the one before it in that order, and every
// position is linked to its run's first: the kept copy, which the run's
// duplicates then stand in for (move count 0, counter read through rep).
// Identity is exact: equal keys are only the cue, the positions themselves
// are compared. Two different positions with equal key.hi may interleave
// (A, B, A'); A' then starts its own run and is merely not removed.

// Sort buffers: keys/ids hold the input and, after exec.sort_pairs, the
// sorted output; the _alt arrays are the sort's second buffers.
struct SortBuffers {
    uint64_t* keys;
    uint64_t* keys_alt;
    uint32_t* ids;
    uint32_t* ids_alt;
};

struct DedupSortKeys {
    const Key128* keys;
    uint64_t* sort_keys;
    uint32_t* ids;
    CHESS_HD void operator()(uint64_t i) const {
        sort_keys[i] = keys[i].hi;
        ids[i] = uint32_t(i);
    }
};

// head[j] = j where sorted position j starts a run, else 0; an inclusive
// max-scan then gives every j its run's start.
struct MarkRunHeads {
    const uint64_t* sorted_keys;
    const uint32_t* ids;
    const Position* pos;
    uint32_t* head;
    CHESS_HD void operator()(uint64_t j) const {
        const bool starts =
            j == 0 || sorted_keys[j] != sorted_keys[j - 1] || !chess::same_position(pos[ids[j]], pos[ids[j - 1]]);
        head[j] = starts ? uint32_t(j) : 0;
    }
};

struct MaxIndex {
    CHESS_HD uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

// Links sorted position j to its run's first and retires it when it is a
// duplicate; contributes 1 per duplicate to the run's counter.
struct LinkDuplicates {
    const uint32_t* ids;
    const uint32_t* head;
    uint32_t* rep;
    uint32_t* counts;
    CHESS_HD Contribution operator()(uint64_t j) const {
        const uint32_t id = ids[j], kept = ids[head[j]];
        rep[id] = kept;
        if (kept == id) return {0, 0};
        counts[id] = 0;
        return {0, 1};
    }
};

// The batch roots have no parent to roll up into: their duplicates copy the
// kept copy's count (kept copies are never duplicates, so nothing races).
struct ResolveDuplicates {
    const uint32_t* rep;
    uint64_t* nodes;
    CHESS_HD void operator()(uint64_t i) const {
        if (rep[i] != uint32_t(i)) nodes[i] = nodes[rep[i]];
    }
};

// ---------------------------------------------------------------------------
// Transposition tables. Right after a level is made (and de-duplicated): a
// hit retires the position (move count 0) with the stored count in its
// counter. After the level's subtree is rolled up: every position that was
// expanded (move count still non-zero, so neither a hit nor a duplicate)
// stores its count.

struct ProbeTable {
    const Key128* keys;
    uint32_t* counts;
    uint64_t* nodes;
    DepthTable table;
    CHESS_HD Contribution operator()(uint64_t i) const {
        uint64_t stored;
        if (counts[i] == 0 || !table_probe(table, keys[i], stored)) return {0, 0};
        counts[i] = 0;
        nodes[i] = stored;
        return {0, 1};
    }
};

// Stores nothing once the error flag is up: the totals of a run whose move
// generation disagreed with its counting are wrong, and device tables outlive
// the call that made them.
struct StoreTable {
    const Key128* keys;
    const uint32_t* counts;
    const uint64_t* nodes;
    DepthTable table;
    const uint32_t* error;
    CHESS_HD Contribution operator()(uint64_t i) const {
        if (*error || counts[i] == 0 || nodes[i] == 0) return {0, 0};
        table_store(table, keys[i], nodes[i]);
        return {0, 1};
    }
};

}  // namespace perftide::gpu
