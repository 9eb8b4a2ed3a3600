// gperft perft --stats: every ply's statistics (captures, en passant,
// castles, promotions, checks by kind, mates, stalemates) as tables or JSON.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "cli.hpp"
#include "cpu_stats.hpp"
#include "json.hpp"
#include "text_table.hpp"

namespace gperft::cli {
namespace {

// Three tables: the chessprogramming columns (and stalemates), then the
// split of checks and of checkmates by kind.
void print_stats_tables(std::ostream& out, const std::vector<StatsTotal>& rows) {
    const auto& columns = stat_columns();
    const size_t groups[4] = {0, 10, 15, 20};  // column ranges of the three tables
    const char* const names[3] = {"depth", "checks (not mate)", "checkmates"};
    for (int g = 0; g < 3; ++g) {
        std::vector<std::string> headings{names[g]};
        for (size_t i = groups[g]; i < groups[g + 1]; ++i) headings.push_back(columns[i].title);
        TextTable table(headings);
        for (size_t d = 0; d < rows.size(); ++d) {
            std::vector<std::string> cells{std::to_string(d + 1)};
            for (size_t i = groups[g]; i < groups[g + 1]; ++i) cells.push_back(chess::to_string(columns[i].value(rows[d])));
            table.add(cells);
        }
        if (g) out << "\n";
        table.print(out);
    }
}

}  // namespace

int run_perft_stats(const std::string& fen, const std::string& moves, int depth, Backend backend, int threads,
                    bool json_output) {
    if (backend == Backend::Gpu)
        throw BackendUnavailable("--stats: statistics are counted on the CPU; use --backend cpu or auto");
    const chess::Position root = position_from(fen, moves);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<StatsTotal> rows = cpu_perft_stats(root, depth, threads);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const chess::u128 nodes = depth == 0 ? 1 : rows.back().c[chess::STAT_NODES];
    if (json_output) {
        std::string array;
        for (size_t d = 0; d < rows.size(); ++d) {
            json::Object row;
            row.raw("depth", std::to_string(d + 1));
            for (const StatColumn& c : stat_columns()) row.cnt(c.key, c.value(rows[d]));
            array += (d ? ", " : "") + row.text();
        }
        json::Object obj;
        obj.str("fen", chess::to_fen(root)).raw("depth", std::to_string(depth)).cnt("nodes", nodes);
        obj.num("seconds", seconds).str("backend", "cpu").raw("stats", "[" + array + "]");
        std::cout << obj.text() << std::endl;
        return EXIT_OK;
    }
    print_stats_tables(std::cout, rows);
    std::cout << "Nodes searched: " << chess::to_string(nodes) << std::endl;
    std::fprintf(stderr, "cpu backend, %.3f s, statistics of %d plies\n", seconds, depth);
    return EXIT_OK;
}

}  // namespace gperft::cli
