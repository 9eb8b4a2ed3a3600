#include "count/stats_tt.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "base/errors.hpp"
#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "chess/perft.hpp"
#include "chess/slot_check.hpp"
#include "count/cpu_perft.hpp"
#include "journal/tally.hpp"

namespace perftide {

using namespace chess;

// Slot layout (SLOT_WORDS 64-bit words, read and written with separate
// relaxed atomic accesses; why a torn read is safe: chess/slot_check.hpp):
// check, depth, then the row's STAT_COUNT counts, with
// check = key.hi ^ fold(depth word, counts). The bucket index comes from
// key.lo and the depth.

namespace {

constexpr uint64_t DEPTH_MIX = 0x9E3779B97F4A7C15ULL;

uint64_t load(const uint64_t* w) { return std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(w)).load(std::memory_order_relaxed); }
void put(uint64_t* w, uint64_t v) { std::atomic_ref<uint64_t>(*w).store(v, std::memory_order_relaxed); }

// A slot's words, read once; `check` verified against `key`.
bool read_slot(const uint64_t* slot, const Key128& key, int depth, uint64_t* words) {
    for (size_t i = 0; i < StatsTable::SLOT_WORDS; ++i) words[i] = load(slot + i);
    return int(words[1]) == depth && slot_verified(key.hi, words[0], words + 1, int(StatsTable::SLOT_WORDS - 1));
}

}  // namespace

StatsTable::StatsTable(size_t buckets) {
    const size_t n = std::bit_floor(buckets < 1 ? size_t(1) : buckets);
    mask_ = n - 1;
    words_ = ZeroedPages<uint64_t>(n * BUCKET_BYTES / sizeof(uint64_t));
}

size_t StatsTable::buckets_for_mb(size_t mb) { return std::bit_floor(std::max<size_t>(1, (mb << 20) / BUCKET_BYTES)); }

uint64_t* StatsTable::bucket(const Key128& key, int depth) const {
    const uint64_t h = key.lo ^ (uint64_t(depth) * DEPTH_MIX);
    return words_.data() + (h & mask_) * (SLOTS * SLOT_WORDS);
}

bool StatsTable::probe(const Key128& key, int depth, PerftStats& row) const {
    const uint64_t* b = bucket(key, depth);
    uint64_t w[SLOT_WORDS];
    for (size_t s = 0; s < SLOTS; ++s) {
        if (read_slot(b + s * SLOT_WORDS, key, depth, w)) {
            std::copy(w + 2, w + SLOT_WORDS, row.c);
            return true;
        }
    }
    return false;
}

void StatsTable::store(const Key128& key, int depth, const PerftStats& row) {
    uint64_t* b = bucket(key, depth);
    // The first slot keeps the deeper subtree (more work saved), the second
    // takes whatever the first does not.
    uint64_t* slot = b + (int(load(b + 1)) <= depth ? 0 : SLOT_WORDS);
    uint64_t w[SLOT_WORDS];
    w[1] = uint64_t(depth);
    std::copy(row.c, row.c + STAT_COUNT, w + 2);
    w[0] = slot_check(key.hi, w + 1, int(SLOT_WORDS - 1));
    for (size_t i = 0; i < SLOT_WORDS; ++i) put(slot + i, w[i]);
}

namespace {

// Below this remaining depth rows come from chess::perft_stats directly;
// from it nodes go through the table. A miss at FUSED_DEPTH or less is
// counted by chess::perft_stats too (its last two plies are fused).
constexpr int MIN_STATS_TT_DEPTH = 2;
constexpr int FUSED_DEPTH = 2;

struct Context {
    Attacks at;
    Zobrist keys;
    StatsTable* table;
};

template <Color Us, class T>
void node(const Position& p, const Key128& k, int depth, const Context& cx, BasicPerftStats<T>& out);

// A stop request is looked at before each node's children are counted, as
// in tt_perft.cpp: it throws Stopped, so no row of a stopped subtree is stored.
template <Color Us, class T>
void children(const Position& p, const Key128& k, int depth, const Context& cx, BasicPerftStats<T>& sum) {
    throw_if_stop_requested();
    MoveList list;
    generate_moves<Us>(p, cx.at, list);
    Key128 child_keys[MAX_MOVES];
    for (int i = 0; i < list.size; ++i) {
        child_keys[i] = cx.keys.child_key(p, apply_move<Us>(p, list.moves[i]), k);
        cx.table->prefetch(child_keys[i], depth - 1);
    }
    for (int i = 0; i < list.size; ++i) {
        const Position c = apply_move<Us>(p, list.moves[i]);
        if constexpr (std::is_same_v<T, uint64_t>) {
            node<~Us, uint64_t>(c, child_keys[i], depth - 1, cx, sum);
        } else if (depth - 1 <= STATS_NARROW_MAX_DEPTH) {
            PerftStats row;
            node<~Us, uint64_t>(c, child_keys[i], depth - 1, cx, row);
            sum += row;
        } else {
            node<~Us, u128>(c, child_keys[i], depth - 1, cx, sum);
        }
    }
}

// Adds the row of (p, depth) to out.
template <Color Us, class T>
void node(const Position& p, const Key128& k, int depth, const Context& cx, BasicPerftStats<T>& out) {
    if (depth < MIN_STATS_TT_DEPTH) {
        PerftStats rows[MIN_STATS_TT_DEPTH];
        perft_stats<Us>(p, cx.at, depth, rows);
        out += rows[depth - 1];
        return;
    }
    if constexpr (std::is_same_v<T, uint64_t>) {
        PerftStats hit;
        if (cx.table->probe(k, depth, hit)) {
            out += hit;
            return;
        }
        PerftStats row;
        if (depth <= FUSED_DEPTH) {
            PerftStats rows[FUSED_DEPTH];
            perft_stats<Us>(p, cx.at, depth, rows);
            row = rows[depth - 1];
        } else {
            children<Us, uint64_t>(p, k, depth, cx, row);
        }
        cx.table->store(k, depth, row);
        out += row;
    } else {
        children<Us, T>(p, k, depth, cx, out);
    }
}

// Adds the row of (p, depth) to a 128-bit row, through the table where the
// depth allows.
template <Color Us>
void add_row(const Position& p, const Key128& k, int depth, const Context& cx, StatsTotal& row) {
    if (depth > STATS_NARROW_MAX_DEPTH) return node<Us, u128>(p, k, depth, cx, row);
    PerftStats narrow;
    node<Us, uint64_t>(p, k, depth, cx, narrow);
    row += narrow;
}

// One root's tally: its rows at 1..remaining plies.
void root_tally(const Position& p, int remaining, const Context& cx, u128* out) {
    const int direct = std::min(remaining, MIN_STATS_TT_DEPTH - 1);
    PerftStats shallow[MIN_STATS_TT_DEPTH] = {};
    if (direct > 0) perft_stats(p, cx.at, direct, shallow);
    for (int d = 1; d <= remaining; ++d) {
        StatsTotal row;
        if (d <= direct) {
            row += shallow[d - 1];
        } else {
            const Key128 k = cx.keys.key(p);
            if (p.stm == WHITE)
                add_row<WHITE>(p, k, d, cx, row);
            else
                add_row<BLACK>(p, k, d, cx, row);
        }
        std::copy(row.c, row.c + STAT_COUNT, out + size_t(d - 1) * STAT_COUNT);
    }
}

}  // namespace

std::vector<u128> stats_tallies(const std::vector<Position>& roots, int remaining, int threads, StatsTable* table,
                                const Zobrist& keys) {
    const size_t width = tally_width(true, remaining);
    std::vector<u128> out(roots.size() * width, 0);
    if (!table && remaining > STATS_NARROW_MAX_DEPTH)
        throw InputError("statistics without a table count each work unit in 64 bits, at most " +
                         std::to_string(STATS_NARROW_MAX_DEPTH) + " plies" +
                         advice(": give a deeper ", {Setting::Split}, " or a table") );
    const Context cx{host_attacks(), keys, table};
    parallel_for(roots.size(), threads, [&](size_t i) {
        u128* tally = out.data() + i * width;
        if (table) return root_tally(roots[i], remaining, cx, tally);
        std::vector<PerftStats> rows(size_t(std::max(remaining, 0)));
        if (remaining > 0) perft_stats(roots[i], cx.at, remaining, rows.data());
        for (int d = 0; d < remaining; ++d) std::copy(rows[d].c, rows[d].c + STAT_COUNT, tally + size_t(d) * STAT_COUNT);
    });
    return out;
}

}  // namespace perftide
