// gperft perft: count the leaf nodes of the legal move tree, optionally per
// root move in Stockfish's divide format, or as one JSON object.
#include <cstdio>
#include <iostream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "cli.hpp"
#include "json.hpp"

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
};

int run_perft_command(const PerftOptions& o) {
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
    sub->add_flag("--divide", o->divide, "Print the count below each root move (Stockfish's format)");
    sub->add_option("-t,--threads", o->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    add_backend_option(*sub, o->backend);
    sub->add_flag("--json", o->json, "Print one JSON object");
    return {sub, [o] { return run_perft_command(*o); }};
}

}  // namespace gperft::cli
