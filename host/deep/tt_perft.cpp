#include "deep/tt_perft.hpp"

#include "chess/perft.hpp"
#include "cpu_perft.hpp"

namespace gperft {

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

template <Color Us, class Count>
Count children(const Position& p, const Key128& k, int depth, const Context& cx) {
    if (depth - 1 < MIN_TT_DEPTH) return perft<Us>(p, cx.at, depth);  // children not looked up: no keys
    MoveList list;
    generate_moves<Us>(p, cx.at, list);
    Count n = 0;
    for (int i = 0; i < list.size; ++i) {
        const Position c = apply_move<Us>(p, list.moves[i]);
        const Key128 ck = cx.keys.child_key(p, c, k);
        if (depth - 1 <= NARROW_MAX_DEPTH)
            n += node<~Us, uint64_t>(c, ck, depth - 1, cx);
        else
            n += node<~Us, u128>(c, ck, depth - 1, cx);
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

}  // namespace gperft
