#include "count/tt_perft.hpp"

#include "base/run_stop.hpp"
#include "chess/perft.hpp"
#include "count/cpu_perft.hpp"

namespace perftide {

using namespace chess;

namespace {

struct Context {
    Attacks at;
    Zobrist keys;
    PerftTable* table;
};

// A subtree of at most 8 plies has fewer than 218^8 < 2^64 leaves, so it is
// counted in 64 bits; deeper subtrees sum in 128 bits.
constexpr int NARROW_MAX_DEPTH = 8;

template <Color Us, class Count>
Count node(const Position& p, const Key128& k, int depth, const Context& cx);

// A stop request (UCI `stop`, Python's Ctrl-C) is looked at before the
// children of every node through the table are counted (a relaxed load
// beside a whole move list): seen at any depth and table size, even where
// each store first-touches a page of a large table (milliseconds each on
// some machines). It throws Stopped, so no count of a stopped subtree is
// stored in the table or returned.
template <Color Us, class Count>
Count children(const Position& p, const Key128& k, int depth, const Context& cx) {
    if (depth - 1 < MIN_TT_DEPTH) return perft<Us>(p, cx.at, depth);  // children not looked up: no keys
    throw_if_stop_requested();
    MoveList list;
    generate_moves<Us>(p, cx.at, list);
    // Every child's key first, its bucket prefetched, so that the probes
    // below find their lines on the way (the children are made again: a
    // move costs less than a cache miss).
    Key128 child_keys[MAX_MOVES];
    for (int i = 0; i < list.size; ++i) {
        child_keys[i] = cx.keys.child_key(p, apply_move<Us>(p, list.moves[i]), k);
        cx.table->prefetch(child_keys[i], depth - 1);
    }
    Count n = 0;
    for (int i = 0; i < list.size; ++i) {
        const Position c = apply_move<Us>(p, list.moves[i]);
        if (depth - 1 <= NARROW_MAX_DEPTH)
            n += node<~Us, uint64_t>(c, child_keys[i], depth - 1, cx);
        else
            n += node<~Us, u128>(c, child_keys[i], depth - 1, cx);
    }
    return n;
}

template <Color Us, class Count>
Count node(const Position& p, const Key128& k, int depth, const Context& cx) {
    if (depth < MIN_TT_DEPTH) return perft<Us>(p, cx.at, depth);
    uint64_t hit;
    if (cx.table->probe(k, depth, hit)) return hit;
    const Count n = children<Us, Count>(p, k, depth, cx);
    if (n <= PerftTable::MAX_COUNT) cx.table->store(k, depth, uint64_t(n));
    return n;
}

}  // namespace

u128 tt_perft(const Position& p, int depth, PerftTable& table, const Zobrist& keys) {
    const Context cx{host_attacks(), keys, &table};
    const Key128 k = keys.key(p);
    if (depth <= NARROW_MAX_DEPTH)
        return p.stm == WHITE ? node<WHITE, uint64_t>(p, k, depth, cx) : node<BLACK, uint64_t>(p, k, depth, cx);
    return p.stm == WHITE ? node<WHITE, u128>(p, k, depth, cx) : node<BLACK, u128>(p, k, depth, cx);
}

std::vector<u128> tt_perft_batch(const std::vector<Position>& roots, int depth, int threads, PerftTable& table,
                                 const Zobrist& keys) {
    return cpu_parallel_batch(roots, depth, threads,
                              [&](const Position& p, int d) { return tt_perft(p, d, table, keys); });
}

}  // namespace perftide
