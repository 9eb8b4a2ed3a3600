// The CPU perft transposition table: (128-bit Zobrist key, remaining depth)
// -> subtree count, shared by all threads without locks. Lossy (entries are
// replaced) but never wrong beyond the 2^-(64 + index bits) chance of a key
// collision; see the slot layout below for why a torn read cannot return a
// wrong count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/zeroed_pages.hpp"
#include "chess/zobrist.hpp"

namespace perftide {

class PerftTable {
   public:
    // Counts up to 2^56 - 1 fit in a slot; larger subtrees are not stored.
    static constexpr uint64_t MAX_COUNT = (uint64_t(1) << 56) - 1;
    static constexpr size_t BUCKET_BYTES = 64;

    // A table of `buckets` buckets (rounded down to a power of two, at
    // least 1); each bucket holds 4 slots of 16 bytes, one cache line.
    explicit PerftTable(size_t buckets);

    // The largest table that fits in `mb` MiB (at least one bucket).
    static size_t buckets_for_mb(size_t mb);

    // The stored count of (key, depth), depth in 1..255; false on a miss.
    bool probe(const chess::Key128& key, int depth, uint64_t& count) const;
    // Starts loading the bucket of (key, depth) into the cache.
    void prefetch(const chess::Key128& key, int depth) const { __builtin_prefetch(bucket(key, depth)); }
    // Stores (key, depth) -> count, replacing the shallowest slot of the
    // bucket; counts above MAX_COUNT are skipped.
    void store(const chess::Key128& key, int depth, uint64_t count);

    size_t buckets() const { return mask_ + 1; }
    size_t bytes() const { return buckets() * BUCKET_BYTES; }

   private:
    uint64_t* bucket(const chess::Key128& key, int depth) const;

    ZeroedPages<uint64_t> words_;  // buckets() * 8 words, page-aligned
    size_t mask_ = 0;
};

}  // namespace perftide
