#include "cpu_perft.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "chess/perft.hpp"

namespace gperft {

using namespace chess;

int default_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n ? int(n) : 1;
}

PerftResult cpu_perft(const Position& root, int depth, int threads) {
    const auto start = std::chrono::steady_clock::now();
    const Attacks at = host_attacks();
    PerftResult r;
    r.backend = "cpu";
    if (depth <= 0) {
        r.nodes = 1;
        return r;
    }

    // Work items: each root move, or each (root move, reply) pair when the
    // tree is deep enough for the split to matter.
    struct Item {
        int root_index;
        Position pos;
        int depth;
    };
    std::vector<Item> items;
    MoveList roots;
    generate_moves(root, at, roots);
    for (int i = 0; i < roots.size; ++i) {
        const Position child = apply_move(root, roots.moves[i]);
        if (depth >= 4) {
            MoveList replies;
            generate_moves(child, at, replies);
            for (Move m : replies) items.push_back({i, apply_move(child, m), depth - 2});
        } else {
            items.push_back({i, child, depth - 1});
        }
    }

    std::vector<uint64_t> counts(items.size());
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < items.size();)
            counts[k] = perft(items[k].pos, at, items[k].depth);
    };
    const int n = std::max(1, std::min<int>(threads > 0 ? threads : default_threads(), int(items.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();

    r.divide.reserve(roots.size);
    for (int i = 0; i < roots.size; ++i) r.divide.emplace_back(roots.moves[i], 0);
    for (size_t k = 0; k < items.size(); ++k) r.divide[items[k].root_index].second += counts[k];
    for (auto& d : r.divide) r.nodes += d.second;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace gperft
