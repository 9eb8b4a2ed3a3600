#include "count/cpu_perft.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "chess/count.hpp"
#include "chess/perft.hpp"
#include "output/progress.hpp"

namespace perftide {

using namespace chess;

std::vector<u128> cpu_parallel_batch(const std::vector<Position>& roots, int depth, int threads,
                                     const ItemCounter& count, Progress* progress) {
    const Attacks at = host_attacks();
    std::vector<u128> out(roots.size(), 0);
    if (depth <= 0) {
        std::fill(out.begin(), out.end(), 1);
        return out;
    }
    const int nthreads = threads > 0 ? threads : default_threads();

    // Expand until there are enough items for the threads to balance.
    struct Item {
        uint32_t owner;
        Position pos;
    };
    std::vector<Item> items;
    for (size_t i = 0; i < roots.size(); ++i) items.push_back({uint32_t(i), roots[i]});
    int d = depth;
    // A progress line wants enough items to move smoothly, also on one thread.
    const bool split = nthreads > 1 || (progress && progress->active());
    while (d >= 3 && split && items.size() < size_t(64) * nthreads) {
        std::vector<Item> next;
        for (const Item& it : items) {
            MoveList list;
            generate_moves(it.pos, at, list);
            for (Move m : list) next.push_back({it.owner, apply_move(it.pos, m)});
        }
        items.swap(next);
        --d;
    }

    std::vector<u128> counts(items.size());
    if (progress) progress->set_total(items.size());
    parallel_for(items.size(), nthreads, [&](size_t k) {
        counts[k] = count(items[k].pos, d);
        if (progress) progress->advance(1, counts[k]);
    });
    for (size_t k = 0; k < items.size(); ++k) out[items[k].owner] += counts[k];
    return out;
}

namespace {

// perft for a run that may be asked to stop: it checks for the request
// between the subtrees of each node more than 5 plies above the leaves
// (each subtree a few milliseconds), and gives up (its count is thrown away).
u128 stoppable_perft(const Position& p, const Attacks& at, int depth) {
    if (depth <= 5) return perft(p, at, depth);
    MoveList list;
    generate_moves(p, at, list);
    u128 n = 0;
    for (Move m : list) {
        if (stop_requested()) return 0;
        n += stoppable_perft(apply_move(p, m), at, depth - 1);
    }
    return n;
}

}  // namespace

std::vector<u128> cpu_perft_batch(const std::vector<Position>& roots, int depth, int threads, Progress* progress) {
    const Attacks at = host_attacks();
    const bool stoppable = stop_armed();
    return cpu_parallel_batch(
        roots, depth, threads,
        [at, stoppable](const Position& p, int d) -> u128 {
            return stoppable ? stoppable_perft(p, at, d) : perft(p, at, d);
        },
        progress);
}

PerftResult divide_perft(const Position& root, int depth, const char* backend, const BatchCounter& batch) {
    const auto start = std::chrono::steady_clock::now();
    PerftResult r;
    r.backend = backend;
    if (depth <= 0) {
        r.nodes = 1;
        return r;
    }
    MoveList roots;
    generate_moves(root, host_attacks(), roots);
    std::vector<Position> children;
    for (Move m : roots) children.push_back(apply_move(root, m));
    const std::vector<u128> counts = batch(children, depth - 1);
    for (int i = 0; i < roots.size; ++i) {
        r.divide.emplace_back(roots.moves[i], counts[i]);
        r.nodes = checked_add(r.nodes, counts[i]);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

PerftResult cpu_perft(const Position& root, int depth, int threads, Progress* progress) {
    return divide_perft(root, depth, "cpu", [threads, progress](const std::vector<Position>& children, int d) {
        return cpu_perft_batch(children, d, threads, progress);
    });
}

}  // namespace perftide
