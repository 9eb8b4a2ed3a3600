// The per-item work of the breadth-first perft engine: what one GPU thread
// does for one position or one (parent, move) item. Everything here is CHESS_HD
// and free of CUDA calls, so the device kernels (device_exec.cuh) and the host
// pipeline (host_exec.hpp) run the same code; only the launch differs.
#pragma once

#include "chess/perft.hpp"
#include "chess/zobrist.hpp"

namespace perftide::gpu {

using chess::Attacks;
using chess::Color;
using chess::Key128;
using chess::Move;
using chess::Position;
using chess::Zobrist;

// One breadth-first level: positions with one side to move and one remaining
// depth, each with its number of legal moves and its node counter (in
// statistics runs, its row). A position known ahead (a table hit, a
// duplicate) has move count 0: nothing below it is expanded.
struct Level {
    Position* pos = nullptr;
    uint32_t* counts = nullptr;  // legal moves of each position still to expand
    uint64_t* nodes = nullptr;   // perft(remaining) of each position, accumulated
    uint64_t* rows = nullptr;    // statistics runs: STAT_COUNT counts a position (level_stats.hpp), accumulated
    Key128* keys = nullptr;      // Zobrist keys, when the run uses tables or duplicate removal
    uint32_t* rep = nullptr;     // index of each position's kept copy, when the level was de-duplicated
    uint64_t size = 0;
};

// A sink that writes move bits to consecutive memory, at most `capacity` of
// them; `size` counts every move offered, so an overflow shows as a mismatch.
struct MoveWriter : chess::MoveExpander<MoveWriter> {
    uint16_t* out;
    uint32_t capacity;
    uint32_t size = 0;

    CHESS_FI MoveWriter(uint16_t* o, uint32_t cap) : out(o), capacity(cap) {}
    CHESS_FI void add(Move m) {
        if (size < capacity) out[size] = m.bits;
        ++size;
    }
};

// Each legal move of `p` in turn, generated first into a local array: the
// leaves' loop (perft(2) here, the statistics leaf in level_stats.hpp).
template <Color Us, class F>
CHESS_FI void for_each_move(const Position& p, const Attacks& at, F&& f) {
    uint16_t list[chess::MAX_MOVES];  // uninitialised on purpose: only `size` entries are read
    MoveWriter w{list, chess::MAX_MOVES};
    chess::generate_moves<Us>(p, at, w);
    const uint32_t n = w.size < uint32_t(chess::MAX_MOVES) ? w.size : uint32_t(chess::MAX_MOVES);
    for (uint32_t i = 0; i < n; ++i) f(Move(list[i]));
}

// perft(2) with bulk counting: the fused last two plies. By default the moves
// are generated into a plain array first and then played one by one;
// PERFTIDE_LEAF_REPLIES_SINK=1 plays and counts each move as it is generated
// (chess::CountRepliesSink, faster on the CPU). On GPUs the interleaved form
// keeps the generator's state live across every count and was measured
// slower elsewhere (results/OPTIMIZATIONS.md); it stays switchable to measure.
#ifndef PERFTIDE_LEAF_REPLIES_SINK
#define PERFTIDE_LEAF_REPLIES_SINK 0
#endif

template <Color Us>
CHESS_HD uint64_t perft2(const Position& p, const Attacks& at) {
#if PERFTIDE_LEAF_REPLIES_SINK
    chess::CountRepliesSink<Us> sink{p, at};
    chess::generate_moves<Us>(p, at, sink);
    return sink.nodes;
#else
    uint64_t nodes = 0;
    for_each_move<Us>(p, at, [&](Move m) { nodes += chess::count_moves<~Us>(chess::apply_move<Us>(p, m), at); });
    return nodes;
#endif
}

// ---------------------------------------------------------------------------
// Per-position and per-item functors. Items of a chunk are (parent, move)
// pairs in parent order: parent[i] is the index of item i's parent in its level.

// Roots: count legal moves, clear the node counter.
template <Color Us>
struct CountRoots {
    const Position* pos;
    uint32_t* counts;
    uint64_t* nodes;
    Attacks at;
    CHESS_HD void operator()(uint64_t i) const {
        counts[i] = chess::count_moves<Us>(pos[i], at);
        nodes[i] = 0;
    }
};

// Remaining depth 1: perft(1) is the move count itself.
struct CountsAreNodes {
    const uint32_t* counts;
    uint64_t* nodes;
    CHESS_HD void operator()(uint64_t i) const { nodes[i] = counts[i]; }
};

// Generation of a chunk of parents [first, first + parents_n) of one level:
// parent k's moves go to items [begin(k), begin(k + 1)) of the chunk.
template <Color Us>
struct GenerateMoves {
    const Position* pos;
    const uint32_t* counts;   // legal moves of each parent, counted when it was made
    const uint64_t* offsets;  // exclusive prefix sum of counts over the level
    uint64_t first;
    uint64_t parents_n;
    uint64_t items;
    uint16_t* moves;   // item -> move bits
    uint32_t* parent;  // item -> parent index in the level
    uint32_t* error;   // set to 1 when a parent yields another number of moves than counted
    Attacks at;

    CHESS_HD uint64_t begin(uint64_t k) const { return k < parents_n ? offsets[first + k] - offsets[first] : items; }

    // Writes parent k's moves to `out`, which has room for exactly its count,
    // and returns that count. A parent with count 0 is skipped: it has no
    // moves, or its count is known ahead (table hit, duplicate) and it must
    // not be expanded. Should generation ever give fewer moves than counting
    // did, the rest are filled with the null move (every slot, and so every
    // parent index, is written) and the flag ends the run before the next
    // level is read.
    CHESS_HD uint32_t emit(uint64_t k, uint16_t* out) const {
        const uint32_t expected = counts[first + k];
        if (expected == 0) return 0;
        MoveWriter w{out, expected};
        chess::generate_moves<Us>(pos[first + k], at, w);
        if (w.size != expected) *error = 1;
        for (uint32_t j = w.size; j < expected; ++j) out[j] = 0;
        return expected;
    }

    // Unstaged: moves and parent indices straight to the chunk's arrays.
    CHESS_HD void operator()(uint64_t k) const {
        const uint64_t b = begin(k);
        const uint32_t n = emit(k, moves + b);
        for (uint32_t j = 0; j < n; ++j) parent[b + j] = uint32_t(first + k);
    }
};

// Moves of one block of parents staged in fast memory (shared memory on the
// device) and then copied out in order, so that the writes coalesce. A block
// whose moves do not fit writes directly instead.
constexpr int GENERATE_BLOCK = 128;   // parents per block (owner indices fit a byte)
constexpr int STAGE_CAPACITY = 8192;  // staged moves per block: 16 KiB of moves + 8 KiB of owners

struct StageBlock {
    uint64_t first, end;  // the block's parents [first, end) within the chunk
    uint64_t lo, hi;      // their items [lo, hi)
    bool staged;
};

template <class G>
CHESS_HD StageBlock stage_block(const G& g, uint64_t block) {
    StageBlock b;
    b.first = block * GENERATE_BLOCK;
    b.end = b.first + GENERATE_BLOCK < g.parents_n ? b.first + GENERATE_BLOCK : g.parents_n;
    b.lo = g.begin(b.first);
    b.hi = g.begin(b.end);
    b.staged = b.hi - b.lo <= uint64_t(STAGE_CAPACITY);
    return b;
}

// Phase 1, thread t of the block: generate into the stage (or straight out).
template <class G>
CHESS_HD void stage_moves(const G& g, const StageBlock& b, int t, uint16_t* s_moves, uint8_t* s_owner) {
    const uint64_t k = b.first + uint64_t(t);
    if (k >= b.end) return;
    if (!b.staged) return g(k);
    const uint64_t off = g.begin(k) - b.lo;
    const uint32_t n = g.emit(k, s_moves + off);
    for (uint32_t j = 0; j < n; ++j) s_owner[off + j] = uint8_t(t);
}

// Phase 2, after the block has synchronised: copy the stage out in order.
template <class G>
CHESS_HD void write_stage(const G& g, const StageBlock& b, int t, const uint16_t* s_moves, const uint8_t* s_owner) {
    if (!b.staged) return;
    for (uint64_t e = uint64_t(t); e < b.hi - b.lo; e += GENERATE_BLOCK) {
        g.moves[b.lo + e] = s_moves[e];
        g.parent[b.lo + e] = uint32_t(g.first + b.first + s_owner[e]);
    }
}

// Items of a chunk whose children are not the last plies: make each child,
// count its moves, clear its counter (the next level), and when the level is
// keyed derive its key from the parent's (only the changed squares).
template <Color Us>
struct MakeChildren {
    const Position* parent_pos;
    const Key128* parent_keys;  // null when the run has no keys
    const uint32_t* parent;
    const uint16_t* moves;
    Level child;
    Attacks at;
    Zobrist zobrist;
    CHESS_HD void operator()(uint64_t i) const {
        const uint32_t p = parent[i];
        const Position c = chess::apply_move<Us>(parent_pos[p], Move(moves[i]));
        child.pos[i] = c;
        child.counts[i] = chess::count_moves<~Us>(c, at);
        child.nodes[i] = 0;
        if (child.keys) child.keys[i] = zobrist.child_key(parent_pos[p], c, parent_keys[p]);
    }
};

// What an accumulating item adds: `value` to counter `key`. Items of one
// launch come in non-decreasing key order (children follow their parents), so
// a warp holds a few runs of equal keys and adds each run with one atomic.
struct Contribution {
    uint32_t key;
    uint64_t value;
};
constexpr uint32_t NO_KEY = 0xFFFFFFFFu;  // lanes past the end of the launch

// The leaf: item i's child, then Plies more plies with bulk counting (1: its
// move count; 2: the fused last two plies), added to the parent's counter.
template <Color Us, int Plies>
struct LeafCount {
    static_assert(Plies == 1 || Plies == 2, "the leaf covers one or two plies below the child");
    const Position* parent_pos;
    const uint32_t* parent;
    const uint16_t* moves;
    Attacks at;
    CHESS_HD Contribution operator()(uint64_t i) const {
        const uint32_t p = parent[i];
        const Position c = chess::apply_move<Us>(parent_pos[p], Move(moves[i]));
        if constexpr (Plies == 1)
            return {p, chess::count_moves<~Us>(c, at)};
        else
            return {p, perft2<~Us>(c, at)};
    }
};

// After a child level's subtree is done: each child's count into its parent.
// A table hit's counter already holds the stored count; a duplicate's count
// is read from its kept copy through rep (null when the level was not
// de-duplicated).
struct RollUp {
    const uint32_t* parent;
    const uint64_t* nodes;
    const uint32_t* rep;
    CHESS_HD Contribution operator()(uint64_t i) const { return {parent[i], nodes[rep ? rep[i] : i]}; }
};

// ---------------------------------------------------------------------------
// Warp accumulation, one lane's view. A warp runs a segmented inclusive scan
// over its 32 contributions: at distance d = 1, 2, 4, 8, 16 each lane adds the
// running sum d lanes below when that lane has the same key. Keys are sorted,
// so equal keys are contiguous and the test at distance d covers the lanes in
// between. The last lane of each run then holds the run's sum and adds it.
constexpr int WARP = 32;

CHESS_FI uint64_t segmented_step(int lane, int d, uint32_t key, uint64_t sum, uint32_t key_below, uint64_t sum_below) {
    return (lane >= d && key_below == key) ? sum + sum_below : sum;
}

CHESS_FI bool segment_tail(int lane, uint32_t key, uint32_t key_above) {
    return key != NO_KEY && (lane == WARP - 1 || key_above != key);
}

}  // namespace perftide::gpu
