// gperft perft: count the leaf nodes of the legal move tree, optionally per
// root move in Stockfish's divide format, or as one JSON object.
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

struct PerftOptions {
    std::string fen = chess::START_FEN;
    std::string moves;
    int depth = 0;
    bool divide = false;
    int threads = 0;
    Backend backend = Backend::Auto;
    bool json = false;
    bool stats = false;
};

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

// --stats: every ply's statistics, as tables or as a JSON array of rows.
int run_stats_command(const PerftOptions& o) {
    if (o.backend == Backend::Gpu)
        throw BackendUnavailable("--stats: statistics are counted on the CPU; use --backend cpu or auto");
    const chess::Position root = position_from(o.fen, o.moves);
    const auto start = std::chrono::steady_clock::now();
    const std::vector<StatsTotal> rows = cpu_perft_stats(root, o.depth, o.threads);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const chess::u128 nodes = o.depth == 0 ? 1 : rows.back().c[chess::STAT_NODES];
    if (o.json) {
        std::string array;
        for (size_t d = 0; d < rows.size(); ++d) {
            json::Object row;
            row.raw("depth", std::to_string(d + 1));
            for (const StatColumn& c : stat_columns()) row.cnt(c.key, c.value(rows[d]));
            array += (d ? ", " : "") + row.text();
        }
        json::Object obj;
        obj.str("fen", chess::to_fen(root)).raw("depth", std::to_string(o.depth)).cnt("nodes", nodes);
        obj.num("seconds", seconds).str("backend", "cpu").raw("stats", "[" + array + "]");
        std::cout << obj.text() << std::endl;
        return EXIT_OK;
    }
    print_stats_tables(std::cout, rows);
    std::cout << "Nodes searched: " << chess::to_string(nodes) << std::endl;
    std::fprintf(stderr, "cpu backend, %.3f s, statistics of %d plies\n", seconds, o.depth);
    return EXIT_OK;
}

int run_perft_command(const PerftOptions& o) {
    if (o.stats) return run_stats_command(o);
    const chess::Position root = position_from(o.fen, o.moves);
    const PerftResult r = run_perft(root, o.depth, o.backend, o.threads);
    const double nps = r.seconds > 0 ? double(r.nodes) / r.seconds : 0;
    if (o.json) {
        json::Object obj;
        obj.str("fen", chess::to_fen(root)).raw("depth", std::to_string(o.depth)).cnt("nodes", r.nodes);
        obj.num("seconds", r.seconds).num("nps", nps).str("backend", r.backend);
        if (o.divide) {
            json::Object d;
            for (const auto& [m, n] : r.divide) d.cnt(chess::move_to_uci(m), n);
            obj.raw("divide", d.text());
        }
        std::cout << obj.text() << std::endl;
        return EXIT_OK;
    }
    if (o.divide) {
        for (const auto& [m, n] : r.divide) std::cout << chess::move_to_uci(m) << ": " << chess::to_string(n) << "\n";
        std::cout << "\n";
    }
    std::cout << "Nodes searched: " << chess::to_string(r.nodes) << std::endl;
    std::fprintf(stderr, "%s backend, %.3f s, %.1f M nodes/s\n", r.backend.c_str(), r.seconds, nps / 1e6);
    return EXIT_OK;
}

}  // namespace

Command setup_perft(CLI::App& app) {
    auto o = std::make_shared<PerftOptions>();
    CLI::App* sub = app.add_subcommand("perft", "Count the legal move paths of a given length");
    sub->add_option("--fen", o->fen, "Root position (default: the start position)")->check(fen_validator());
    sub->add_option("--moves", o->moves, "UCI moves to play from the FEN first, space separated");
    sub->add_option("-d,--depth", o->depth, "Number of plies")->required()->check(CLI::Range(0, 30));
    auto* divide = sub->add_flag("--divide", o->divide, "Print the count below each root move (Stockfish's format)");
    sub->add_flag("--stats", o->stats,
                  "Count captures, en passant, castles, promotions, checks by kind, mates and stalemates at every "
                  "ply (the chessprogramming Perft Results columns and the Grand Chess Tree split)")
        ->excludes(divide);
    sub->add_option("-t,--threads", o->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    add_backend_option(*sub, o->backend);
    sub->add_flag("--json", o->json, "Print one JSON object");
    return {sub, [o] { return run_perft_command(*o); }};
}

}  // namespace gperft::cli
