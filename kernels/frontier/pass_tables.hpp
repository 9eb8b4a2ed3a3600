// The CPU frontier engine's entries and the tables its passes merge them
// in. A kept ply's entry is the packed position itself (32 bytes); the last
// ply's holds 87 bits of the child's Zobrist key, its multiplicity and its
// classes (16 bytes). Each partition of a pass has its own open-addressing
// table, where equal entries add their multiplicities.
#pragma once

#include <algorithm>
#include <cstdint>

#include "base/zeroed_pages.hpp"
#include "chess/config.hpp"
#include "chess/identity.hpp"
#include "chess/packed_position.hpp"
#include "chess/zobrist.hpp"

namespace perftide::frontier::cpu {

using chess::Key128;
using chess::PackedPosition;

// A kept frontier's entry: the position itself.
struct Entry {
    PackedPosition key;  // key.occupied == 0: an empty slot
    uint64_t count;

    bool empty() const { return !key.occupied; }
    bool same(const Entry& o) const { return key == o.key; }
    // False when the multiplicity would pass 2^64 - 1 (it then stays).
    bool merge(const Entry& o) {
        if (count > UINT64_MAX - o.count) return false;
        count += o.count;
        return true;
    }
    uint64_t hash() const { return chess::identity_hash(key); }
};
static_assert(sizeof(Entry) == 32, "two entries to a cache line");

// The last ply's entry: the child's Zobrist key (lo whole, 23 bits of hi),
// its multiplicity (34 bits) and its classes (6 bits), and a bit that is
// set in every entry (an empty slot is all zero).
struct KeyEntry {
    static constexpr int COUNT_SHIFT = 30;
    static constexpr uint64_t KEY_BITS = (uint64_t(1) << 23) - 1, USED = uint64_t(1) << 23;
    static constexpr uint64_t MAX_COUNT = (uint64_t(1) << 34) - 1;
    uint64_t lo = 0, word = 0;

    KeyEntry() = default;
    KeyEntry(const Key128& k, unsigned classes, uint64_t count)
        : lo(k.lo), word(count << COUNT_SHIFT | uint64_t(classes) << 24 | USED | (k.hi & KEY_BITS)) {}
    uint64_t count() const { return word >> COUNT_SHIFT; }
    unsigned classes() const { return unsigned(word >> 24) & 63; }
    bool empty() const { return !word; }
    bool same(const KeyEntry& o) const { return lo == o.lo && (word & KEY_BITS) == (o.word & KEY_BITS); }
    // False when the multiplicity would pass MAX_COUNT (it then stays).
    bool merge(const KeyEntry& o) {
        const uint64_t c = count() + o.count();
        if (c > MAX_COUNT) return false;
        word = (word & ((uint64_t(1) << COUNT_SHIFT) - 1)) | c << COUNT_SHIFT;
        return true;
    }
    uint64_t hash() const { return lo; }
};
static_assert(sizeof(KeyEntry) == 16, "four entries to a cache line");

constexpr uint64_t ENTRY_BYTES = sizeof(Entry);
constexpr int BATCH = 16;          // children buffered per partition and thread
constexpr double MAX_LOAD = 0.75;  // a table grows by half past it

// A child's pass: detail::pass_of (frontier_expand.hpp). Within a pass,
// bits 20..31 of the entry's hash choose the partition (of at most
// MAX_PARTITIONS), and the whole hash (remixed) the slot: a growing table
// recomputes it.
CHESS_FI uint32_t partition_of(uint64_t h, uint32_t partitions) { return uint32_t(h >> 20) & (partitions - 1); }
CHESS_FI uint64_t slot_of(uint64_t h, uint64_t cap) {
    return uint64_t((unsigned __int128)(h * 0x9E3779B97F4A7C15ULL) * cap >> 64);
}

// A partition's table: linear probing over `cap` slots (any number).
template <class E>
class Table {
   public:
    uint64_t size() const { return size_; }
    uint64_t bytes() const { return cap_ * sizeof(E); }
    // Whether a multiplicity outgrew its entry (KeyEntry::MAX_COUNT, or
    // 2^64 - 1 for Entry).
    bool overflowed() const { return overflow_; }

    // An empty table of `cap` slots.
    void reset(uint64_t cap) {
        cap_ = std::max<uint64_t>(16, cap);
        slots_ = ZeroedPages<E>(cap_);
        size_ = 0;
    }
    void release() {
        slots_ = ZeroedPages<E>();
        cap_ = size_ = 0;
    }

    // Adds n entries (equal keys merge); returns how many bytes the table grew.
    uint64_t insert(const E* in, const uint64_t* hashes, int n) {
        uint64_t grown = 0;
        if (double(size_ + n) > double(cap_) * MAX_LOAD) grown = grow(uint64_t(double(cap_) * 1.5) + n);
        uint64_t at[BATCH];
        for (int i = 0; i < n; ++i) {
            at[i] = slot_of(hashes[i], cap_);
            __builtin_prefetch(&slots_[at[i]], 1);
        }
        for (int i = 0; i < n; ++i) place(in[i], at[i]);
        return grown;
    }

    template <class F>
    void for_each(F&& f) const {
        for (uint64_t i = 0; i < cap_; ++i)
            if (!slots_[i].empty()) f(slots_[i]);
    }

   private:
    void place(const E& e, uint64_t i) {
        for (;;) {
            E& s = slots_[i];
            if (s.empty()) {
                s = e;
                ++size_;
                return;
            }
            if (s.same(e)) {
                if (!s.merge(e)) overflow_ = true;
                return;
            }
            if (++i == cap_) i = 0;
        }
    }

    uint64_t grow(uint64_t cap) {
        ZeroedPages<E> old = std::move(slots_);
        const uint64_t old_cap = cap_;
        cap_ = cap;
        slots_ = ZeroedPages<E>(cap_);
        size_ = 0;
        for (uint64_t i = 0; i < old_cap; ++i)
            if (!old[i].empty()) place(old[i], slot_of(old[i].hash(), cap_));
        return (cap_ - old_cap) * sizeof(E);
    }

    ZeroedPages<E> slots_;
    uint64_t cap_ = 0, size_ = 0;
    bool overflow_ = false;
};

}  // namespace perftide::frontier::cpu
