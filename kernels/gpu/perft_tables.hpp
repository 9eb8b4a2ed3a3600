// The breadth-first engine's transposition tables: one per remaining depth,
// mapping a position's 128-bit Zobrist key to perft(depth) of the position,
// or in statistics runs to its statistics row.
// Lossy (a store overwrites its slot) but never wrong beyond the 2^-64 chance
// that another key passes the check. Kernels reach them through a trivially
// copyable view, like the attack tables; the memory is the executor's.
#pragma once

#include <cstdint>

#include "chess/slot_check.hpp"
#include "chess/stats.hpp"
#include "chess/zobrist.hpp"
#include "gpu/gpu_perft.hpp"

namespace perftide::gpu {

// One slot, loaded and stored as one 16-byte access (alignas(16) lets the
// compiler use a single vector load/store):
//   check = key.hi ^ count
//   count = perft(depth) of the position; 0 marks an empty slot (a count of
//           0 is never stored).
// The slot index comes from key.lo. A 16-byte aligned store is in practice
// one transaction on NVIDIA GPUs, but nothing guarantees it, and two threads
// of one store launch may write the same slot: why a torn slot is safe is in
// chess/slot_check.hpp. (Probes and stores run in different launches, so
// within a probe nothing is written.)
struct alignas(16) TableEntry {
    uint64_t check;
    uint64_t count;
};
static_assert(sizeof(TableEntry) == 16, "a table slot is one 16-byte access");

// A statistics run's slot (perft --stats): the row of the moves at the last
// ply of the position's subtree (chess/stats.hpp), 128 bytes loaded and
// stored as eight 16-byte accesses:
//   check = key.hi ^ fold_words(row)
//   row   = the STAT_COUNT counts; nodes == 0 marks an empty slot.
// A torn slot is safe for the reason chess/slot_check.hpp gives.
struct alignas(16) RowEntry {
    uint64_t check;
    uint64_t row[chess::STAT_COUNT];
    uint64_t unused;
};
static_assert(sizeof(RowEntry) == 128, "a row slot is eight 16-byte accesses");

// One remaining depth's table of Entry slots (TableEntry, or RowEntry in
// statistics runs).
template <class Entry>
struct DepthTableOf {
    Entry* entries = nullptr;
    uint64_t size = 0;  // slots; 0: no table at this depth
};
using DepthTable = DepthTableOf<TableEntry>;
using RowTable = DepthTableOf<RowEntry>;

// Tables exist for remaining depths TABLE_MIN_DEPTH..MAX_DEVICE_DEPTH: below
// 3 a subtree costs less than a probe (those plies are the fused leaf).
constexpr int TABLE_MIN_DEPTH = 3;

// Share of the table memory per remaining depth (out of the sum). Levels get
// about 30 times bigger per ply towards the leaves and a hit there saves 30
// times less, so what a table saves is similar at every depth while the
// shallow levels need many more slots for the same hit rate; the top depths
// hold only batch roots, which the work units have already made distinct.
constexpr int TABLE_WEIGHT[MAX_DEVICE_DEPTH + 1] = {0, 0, 0, 5, 4, 3, 2, 1};

template <class Entry>
struct TablesOf {
    DepthTableOf<Entry> depth[MAX_DEVICE_DEPTH + 1];

    CHESS_HD const DepthTableOf<Entry>& at(int r) const { return depth[r]; }
    bool any() const {
        for (const DepthTableOf<Entry>& t : depth)
            if (t.size) return true;
        return false;
    }
};
using PerftTables = TablesOf<TableEntry>;
using RowTables = TablesOf<RowEntry>;

// The memory an executor holds for the tables; a run lays it out as the
// tables of its kind (counts, or statistics rows).
struct TableMemory {
    void* base = nullptr;  // 16-byte aligned
    uint64_t bytes = 0;
};

// Splits the memory into the per-depth tables by TABLE_WEIGHT; a depth whose
// share holds no slot gets no table.
template <class Entry>
TablesOf<Entry> layout_tables(const TableMemory& m) {
    TablesOf<Entry> t;
    int weights = 0;
    for (int w : TABLE_WEIGHT) weights += w;
    const uint64_t slots = m.base ? m.bytes / sizeof(Entry) : 0;
    Entry* next = static_cast<Entry*>(m.base);
    for (int r = TABLE_MIN_DEPTH; r <= MAX_DEVICE_DEPTH; ++r) {
        const uint64_t n = slots / uint64_t(weights) * uint64_t(TABLE_WEIGHT[r]);
        if (n) t.depth[r] = {next, n};
        next += n;
    }
    return t;
}

// The high 64 bits of a * b, from 32-bit halves (the same code on host and device).
CHESS_FI uint64_t mul_hi64(uint64_t a, uint64_t b) {
    const uint64_t a_lo = uint32_t(a), a_hi = a >> 32, b_lo = uint32_t(b), b_hi = b >> 32;
    const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const uint64_t cross = (lo_lo >> 32) + uint32_t(hi_lo) + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

// key.lo scaled to [0, size): any table size uses all its memory.
template <class Entry>
CHESS_FI uint64_t table_slot(const DepthTableOf<Entry>& t, const chess::Key128& key) {
    return mul_hi64(key.lo, t.size);
}

CHESS_HD inline bool table_probe(const DepthTable& t, const chess::Key128& key, uint64_t& count) {
    const TableEntry e = t.entries[table_slot(t, key)];
    if (e.count == 0 || !chess::slot_verified(key.hi, e.check, e.count)) return false;
    count = e.count;
    return true;
}

CHESS_HD inline void table_store(const DepthTable& t, const chess::Key128& key, uint64_t count) {
    if (count) t.entries[table_slot(t, key)] = TableEntry{chess::slot_check(key.hi, count), count};
}

CHESS_HD inline bool row_probe(const RowTable& t, const chess::Key128& key, uint64_t* row) {
    const RowEntry e = t.entries[table_slot(t, key)];
    if (e.row[chess::STAT_NODES] == 0 || !chess::slot_verified(key.hi, e.check, e.row, chess::STAT_COUNT)) return false;
    for (int k = 0; k < chess::STAT_COUNT; ++k) row[k] = e.row[k];
    return true;
}

CHESS_HD inline void row_store(const RowTable& t, const chess::Key128& key, const uint64_t* row) {
    if (row[chess::STAT_NODES] == 0) return;
    RowEntry e;
    for (int k = 0; k < chess::STAT_COUNT; ++k) e.row[k] = row[k];
    e.check = chess::slot_check(key.hi, e.row, chess::STAT_COUNT);
    e.unused = 0;
    t.entries[table_slot(t, key)] = e;
}

}  // namespace perftide::gpu
