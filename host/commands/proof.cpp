// perftide proof: the shortest proof games of a diagram (the men on their
// squares), how many there are, and each of them when there are few.
#include <chrono>
#include <iostream>
#include <memory>

#include "analysis/proof_game.hpp"
#include "chess/io/count_text.hpp"
#include "commands/cli.hpp"
#include "output/words.hpp"

namespace perftide::cli {
namespace {

struct ProofOptions {
    std::string diagram;
    analysis::ProofGameOptions search;
    bool json = false;
};

int run_proof_command(const ProofOptions& o) {
    const analysis::Diagram target = analysis::parse_diagram(o.diagram);
    const auto start = std::chrono::steady_clock::now();
    const analysis::ProofGames r = analysis::find_proof_games(target, o.search);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string placement = o.diagram.substr(0, o.diagram.find_first_of(" \t"));
    if (o.json) {
        std::cout << analysis::proof_games_json(placement, o.search.max_plies, r, seconds) << std::endl;
        return EXIT_OK;
    }
    if (!r.complete) {
        std::cout << "unknown: the search kept " << r.positions << " positions (--max-positions) before an answer\n";
    } else if (!r.shortest) {
        std::cout << "no proof game of " << placement << " within " << counted(o.search.max_plies, "ply", "plies") << "\n";
    } else {
        std::cout << "shortest proof games: " << counted(*r.shortest, "ply", "plies") << ", "
                  << chess::to_string(r.games) << (r.games == 1 ? " game" : " games") << " (" << analysis::proof_verdict(r) << ")\n";
        for (const auto& line : r.lines) std::cout << analysis::proof_game_text(line) << "\n";
    }
    std::fprintf(stderr, "%llu positions searched, %.3f s\n", (unsigned long long)r.positions, seconds);
    return EXIT_OK;
}

}  // namespace

Command setup_proof(CLI::App& app) {
    auto o = std::make_shared<ProofOptions>();
    CLI::App* sub = app.add_subcommand("proof", "Find the shortest proof games of a diagram (the men on their squares)");
    sub->add_option("diagram", o->diagram,
                    "The diagram: a FEN's placement field (a whole FEN is taken, its other fields ignored)")
        ->required();
    sub->add_option("--max-plies", o->search.max_plies, "The longest games searched (default 12)")
        ->check(CLI::Range(0, analysis::MAX_PROOF_PLIES));
    sub->add_option("--list", o->search.list_limit, "List the games when there are at most this many (default 10)")
        ->check(CLI::Range(size_t(0), size_t(1000)));
    sub->add_option("--max-positions", o->search.max_positions,
                    "Positions the search may keep (each with the plies left) before it gives up (default 20000000)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    sub->add_flag("--json", o->json, "Print one JSON object");
    return {sub, [o] { return run_proof_command(*o); }};
}

}  // namespace perftide::cli
