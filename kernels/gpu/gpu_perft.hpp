// The GPU backend's plain C++ face: no CUDA types, so host/ code compiled by
// g++ calls it whether or not the CUDA backend was built. The engine is a
// host-driven breadth-first search (see level_pipeline.hpp); the same pipeline
// also runs on the host (host_pipeline.hpp) so it can be tested without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"
#include "chess/stats.hpp"
#include "chess/zobrist.hpp"
#include "gpu/device_memory.hpp"

namespace perftide::gpu {

// The errors a call ends with that callers tell apart; neither leaves a
// partial count behind.
// The arena could not hold one parent's subtree: no smaller split is left.
struct ArenaExhausted : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// The memory a plan asked for could not be had. Nothing is held afterwards.
struct MemoryUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Status {
    bool available = false;
    std::string message;  // the device's name, or why there is none
};

// Whether a CUDA device can run the backend here. Cheap after the first call.
Status status();

// Most plies one breadth-first run covers from its roots. Every per-position
// count on the device is a 64-bit integer: no accepted position has more than
// chess::MAX_MOVES (416) moves, and 416^7 < 2^61, so perft(7) of any position
// fits (perft(8) would need fewer than 256 moves a ply, true of legal games,
// not of every crowded position a FEN can give). Deeper requests are
// expanded on the host first.
constexpr int MAX_DEVICE_DEPTH = 7;

// Options::table_bytes for "choose for me": on the device a share of the
// free memory (AUTO_TABLE_SHARE; the arena gets the rest), on the host
// pipeline HOST_AUTO_TABLE_BYTES.
constexpr long long AUTO_TABLES = -1;
constexpr double AUTO_TABLE_SHARE = 0.5;
constexpr long long HOST_AUTO_TABLE_BYTES = 16LL << 20;

// Levels with fewer positions than this are not de-duplicated by default: a
// sort costs a handful of launches, which a small level does not repay.
constexpr uint64_t DEDUP_MIN_ITEMS = 4096;

struct Options {
    // Bytes of the one working arena. 0: sized from free device memory (the
    // host pipeline then uses 256 MiB).
    std::size_t arena_bytes = 0;
    // Plies above this are expanded on the host before the breadth-first run
    // (1..MAX_DEVICE_DEPTH); tests lower it to exercise that path.
    int max_device_depth = MAX_DEVICE_DEPTH;
    // Scales the estimate of the memory an item's subtree needs, from which
    // chunks are sized. Below 1 the chunks are optimistic and the levels
    // below split them again (tests use it to exercise that path).
    double chunk_estimate_scale = 1.0;
    // Transposition tables, one per remaining depth 3..7 (perft_tables.hpp),
    // all depths together in bytes: 0 none, AUTO_TABLES sized automatically.
    // On the device they persist between calls with the same sizes, seed and
    // kind (counts, or statistics rows).
    long long table_bytes = 0;
    // Seed of the 128-bit Zobrist keys of the tables and duplicate removal;
    // a second run with another seed confirms a result.
    uint64_t zobrist_seed = chess::DEFAULT_ZOBRIST_SEED;
    // Duplicate removal within every made level of remaining depth >= 3 that
    // has at least dedup_min_items positions (tests use 0 to force it).
    bool dedup = true;
    uint64_t dedup_min_items = DEDUP_MIN_ITEMS;
};

// What a run did, for tests and benchmarks.
struct Stats {
    int host_plies = 0;               // plies expanded on the host before the device run
    std::uint64_t batches = 0;        // breadth-first runs (one per side to move and root slice)
    std::uint64_t make_launches = 0;  // levels (or chunks of levels) made and counted
    std::uint64_t leaf_launches = 0;  // fused leaf launches (chunks of the last level)
    std::uint64_t max_leaf_items = 0;
    std::uint64_t leaf_items = 0;     // (position, move) items counted by leaf launches
    std::uint64_t chunk_retries = 0;  // chunks split again because the levels below outgrew the estimate
    std::size_t arena_bytes = 0;
    std::size_t peak_arena_bytes = 0;
    std::size_t table_bytes = 0;     // transposition table memory in use
    std::uint64_t table_probes = 0;  // positions looked up in a table
    std::uint64_t table_hits = 0;
    std::uint64_t table_stores = 0;
    std::uint64_t dedup_levels = 0;     // levels (or chunks of levels) de-duplicated
    std::uint64_t dedup_positions = 0;  // positions those levels held
    std::uint64_t duplicates = 0;       // of them, copies of another position in their level
};

using chess::StatsTotal;  // a statistics row in 128-bit totals (chess/stats.hpp)

// perft(depth) of every root, depth >= 0. Throws std::runtime_error when no
// device is usable, a CUDA call fails or memory runs out; never returns a
// partial count.
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth);
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats = nullptr);

// Statistics of every ply below every root: rows[i * depth + k] classifies
// the moves made at ply k + 1 below roots[i], k < depth (the pipeline runs
// once per depth with a classifying leaf, through tables of rows when
// options.table_bytes asks for them, and duplicate removal). Throws like
// perft_batch.
std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options = {},
                                  Stats* stats = nullptr);

// Gives the arena and the tables back to the device (a run's end: the next
// call allocates again). Plain calls without tables give their arena back by
// themselves; runs with tables (deep perft) call this when they end.
void release_device_memory();

// --device n, before any CUDA call: makes the n-th GPU the only one the
// runtime sees (the n-th of CUDA_VISIBLE_DEVICES when that is set). Returns
// why n cannot be chosen ("" when it can): past CUDA_VISIBLE_DEVICES' list,
// past the GPUs the driver lists, or past the stand-in's one device. With
// no driver at all it is accepted: the GPU backend then says there is none.
std::string choose_device(int n);

// The one device copy of the attack tables, as the view kernels take: every
// GPU pipeline (perft, statistics, the frontier of perftide unique) reaches the
// tables through it. Throws std::runtime_error when no device is usable.
chess::Attacks device_attacks();

}  // namespace perftide::gpu
