#include "count/cpu_stats.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "base/parallel.hpp"
#include "base/run_stop.hpp"
#include "count/cpu_perft.hpp"
#include "output/progress.hpp"

namespace perftide {

using namespace chess;

namespace {

// Expands the first plies on the calling thread (classifying their moves)
// until there are enough subtrees to keep every thread busy (or, split, to
// move a progress line smoothly on one thread, or to stop soon on request).
std::vector<Position> expand(const Position& root, int depth, int nthreads, bool split, std::vector<StatsTotal>& rows,
                             int& ply) {
    const Attacks at = host_attacks();
    std::vector<Position> items{root};
    ply = 0;
    while (depth - ply >= 3 && (nthreads > 1 || split) && items.size() < size_t(64) * nthreads) {
        PerftStats row;
        std::vector<Position> next;
        for (const Position& p : items) {
            MoveList list;
            generate_moves(p, at, list);
            for (Move m : list) {
                next.push_back(apply_move(p, m));
                classify_move(m, next.back(), at, row);
            }
        }
        rows[ply++] += row;
        items.swap(next);
    }
    return items;
}

}  // namespace

std::vector<StatsTotal> cpu_perft_stats(const Position& root, int depth, int threads, Progress* progress) {
    std::vector<StatsTotal> rows(std::max(depth, 0));
    if (depth <= 0) return rows;
    const int nthreads = threads > 0 ? threads : default_threads();
    int ply = 0;
    const std::vector<Position> items =
        expand(root, depth, nthreads, (progress && progress->active()) || stop_armed(), rows, ply);
    const int rest = depth - ply;
    if (progress) progress->set_total(items.size());

    struct Local {
        Attacks at;
        std::vector<StatsTotal> rows;  // this thread's sums, plies ply + 1 .. depth
        std::vector<PerftStats> item;  // one item's rows
    };
    parallel_reduce(
        items.size(), nthreads, [&] { return Local{host_attacks(), std::vector<StatsTotal>(rest), std::vector<PerftStats>(rest)}; },
        [&](Local& l, size_t k) {
            std::fill(l.item.begin(), l.item.end(), PerftStats{});
            perft_stats(items[k], l.at, rest, l.item.data());
            for (int d = 0; d < rest; ++d) l.rows[d] += l.item[d];
            if (progress) progress->advance(1, l.item[rest - 1].c[STAT_NODES]);
        },
        [&](const Local& l) {
            for (int d = 0; d < rest; ++d) rows[ply + d] += l.rows[d];
        });
    return rows;
}

const std::vector<StatColumn>& stat_columns() {
    using S = StatsTotal;
    static const std::vector<StatColumn> columns = {
        {"nodes", "nodes", [](const S& s) { return s.c[STAT_NODES]; }},
        {"captures", "captures", [](const S& s) { return s.c[STAT_CAPTURES]; }},
        {"enpassants", "e.p.", [](const S& s) { return s.c[STAT_EN_PASSANT]; }},
        {"castles", "castles", [](const S& s) { return s.c[STAT_CASTLES]; }},
        {"promotions", "promotions", [](const S& s) { return s.c[STAT_PROMOTIONS]; }},
        {"checks", "checks", [](const S& s) { return s.cpw_checks(); }},
        {"discovery_checks", "discovery checks", [](const S& s) { return s.cpw_discovery_checks(); }},
        {"double_checks", "double checks", [](const S& s) { return s.cpw_double_checks(); }},
        {"checkmates", "checkmates", [](const S& s) { return s.checkmates(); }},
        {"stalemates", "stalemates", [](const S& s) { return s.c[STAT_STALEMATES]; }},
        {"direct_checks", "direct", [](const S& s) { return s.c[STAT_CHECKS + DIRECT]; }},
        {"single_discovered_checks", "single discovered",
         [](const S& s) { return s.c[STAT_CHECKS + SINGLE_DISCOVERED]; }},
        {"direct_discovered_checks", "direct+discovered",
         [](const S& s) { return s.c[STAT_CHECKS + DIRECT_DISCOVERED]; }},
        {"double_discovered_checks", "double discovered",
         [](const S& s) { return s.c[STAT_CHECKS + DOUBLE_DISCOVERED]; }},
        {"total_checks", "total", [](const S& s) { return s.checks_without_mate(); }},
        {"direct_mates", "direct", [](const S& s) { return s.c[STAT_MATES + DIRECT]; }},
        {"single_discovered_mates", "single discovered",
         [](const S& s) { return s.c[STAT_MATES + SINGLE_DISCOVERED]; }},
        {"direct_discovered_mates", "direct+discovered",
         [](const S& s) { return s.c[STAT_MATES + DIRECT_DISCOVERED]; }},
        {"double_discovered_mates", "double discovered",
         [](const S& s) { return s.c[STAT_MATES + DOUBLE_DISCOVERED]; }},
        {"total_mates", "total", [](const S& s) { return s.checkmates(); }},
    };
    return columns;
}

const StatColumn& stat_column(const std::string& key) {
    for (const StatColumn& c : stat_columns())
        if (key == c.key) return c;
    throw std::out_of_range("no statistics column '" + key + "'");
}

}  // namespace perftide
