// perftide perft --stats: every ply's statistics (captures, en passant,
// castles, promotions, checks by kind, mates, stalemates) as tables or JSON,
// counted on the CPU or on the GPU (the breadth-first engine's statistics
// leaf), which give the same rows.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "count/cpu_stats.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "output/text_table.hpp"
#include "output/words.hpp"

namespace perftide::cli {

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

std::string stats_json(const std::vector<StatsTotal>& rows) {
    json::Array array;
    for (size_t d = 0; d < rows.size(); ++d) {
        json::Object row;
        row.integer("depth", d + 1);
        for (const StatColumn& c : stat_columns()) row.cnt(c.key, c.value(rows[d]));
        array.raw(row.text());
    }
    return array.text();
}

namespace {

std::vector<StatsTotal> count_stats(const chess::Position& root, int depth, const Backend& backend, bool quiet) {
    if (!backend.gpu()) {
        Progress bar(0, {.wanted = !quiet, .what = "subtrees"});  // cleared before the tables are printed
        return backend.stats_rows(root, depth, &bar);
    }
    return backend.stats_rows(root, depth);
}

}  // namespace

int run_perft_stats(const chess::Position& root, int depth, const Backend& backend, bool json_output, bool quiet) {
    const char* backend_name = backend.name();
    const auto start = std::chrono::steady_clock::now();
    const std::vector<StatsTotal> rows = count_stats(root, depth, backend, quiet);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const chess::u128 nodes = depth == 0 ? 1 : rows.back().c[chess::STAT_NODES];
    if (json_output) {
        json::Object obj;
        obj.str("fen", chess::to_fen(root)).integer("depth", depth).cnt("nodes", nodes);
        obj.num("seconds", seconds).str("backend", backend_name).raw("stats", stats_json(rows));
        std::cout << obj.text() << std::endl;
        return EXIT_OK;
    }
    print_stats_tables(std::cout, rows);
    std::cout << "Nodes searched: " << chess::to_string(nodes) << std::endl;
    std::fprintf(stderr, "%s backend, %.3f s, statistics of %s\n", backend_name, seconds,
                 counted(depth, "ply", "plies").c_str());
    return EXIT_OK;
}

}  // namespace perftide::cli
