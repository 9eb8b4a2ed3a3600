// Perft statistics on the CPU for deep runs: a transposition table that
// stores a whole statistics row per (position, remaining depth), and the
// tallies of work units (journal/tally.hpp) counted with it or without it.
//
// A row is the statistics of the moves made at the last ply of a subtree,
// so the row of (p, d) is the sum of its children's rows at d - 1, as a
// count is; a tally's rows at 1..r plies are counted one depth at a time
// (the shallower ones cost about a branching factor less each).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/zeroed_pages.hpp"
#include "chess/count.hpp"
#include "chess/stats.hpp"
#include "chess/zobrist.hpp"

namespace perftide {

// Deepest remaining depth whose rows are counted and stored in 64 bits (a
// subtree of 10 plies has fewer than 2^64 leaves, as MAX_SPLIT says);
// deeper subtrees sum their rows in 128 bits and are not stored.
constexpr int STATS_NARROW_MAX_DEPTH = 10;

class StatsTable {
   public:
    static constexpr size_t SLOT_WORDS = 2 + chess::STAT_COUNT;  // check, depth, the row
    static constexpr size_t SLOTS = 2;                           // depth-preferred, then always-replace
    static constexpr size_t BUCKET_BYTES = SLOTS * SLOT_WORDS * sizeof(uint64_t);

    // A table of `buckets` buckets (rounded down to a power of two, at least 1).
    explicit StatsTable(size_t buckets);
    static size_t buckets_for_mb(size_t mb);

    // The stored row of (key, depth), depth in 1..255; false on a miss.
    bool probe(const chess::Key128& key, int depth, chess::PerftStats& row) const;
    void prefetch(const chess::Key128& key, int depth) const { __builtin_prefetch(bucket(key, depth)); }
    void store(const chess::Key128& key, int depth, const chess::PerftStats& row);

    size_t buckets() const { return mask_ + 1; }
    size_t bytes() const { return buckets() * BUCKET_BYTES; }

   private:
    uint64_t* bucket(const chess::Key128& key, int depth) const;

    ZeroedPages<uint64_t> words_;
    size_t mask_ = 0;
};

// The tallies of `roots` at `remaining` plies (tally_width(true, remaining)
// counts each, one root after another), on `threads` threads (<= 0: all)
// sharing `table`; without a table (nullptr) each root's rows come from one
// pass of chess::perft_stats, in 64 bits (remaining <= STATS_NARROW_MAX_DEPTH,
// else std::invalid_argument).
std::vector<chess::u128> stats_tallies(const std::vector<chess::Position>& roots, int remaining, int threads,
                                       StatsTable* table, const chess::Zobrist& keys);

}  // namespace perftide
