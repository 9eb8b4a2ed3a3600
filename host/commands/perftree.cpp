// perftide perftree DEPTH FEN [MOVES]: the perftree script protocol
// (github.com/agausmann/perftree), so perftide can sit on either side of it:
// one "move count" line per root move, a blank line, then the total.
#include <iostream>
#include <memory>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "deep/deep_perft.hpp"

namespace perftide::cli {
namespace {

struct PerftreeOptions {
    int depth = 0;
    std::string fen;
    std::string moves;
    int threads = 0;
    BackendChoice backend = BackendChoice::Auto;
    bool chess960 = false;
};

int run_perftree_command(const PerftreeOptions& o) {
    const chess::Position root = position_from(o.fen, o.moves, o.chess960);
    const PerftResult r = count_perft(*open_backend(o.backend, o.threads), root, o.depth, {});
    std::string out;
    for (const auto& [m, n] : sorted_divide(r, root)) out += m + " " + chess::to_string(n) + "\n";
    std::cout << out << "\n" << chess::to_string(r.nodes) << std::endl;
    return EXIT_OK;
}

}  // namespace

Command setup_perftree(CLI::App& app) {
    auto o = std::make_shared<PerftreeOptions>();
    CLI::App* sub = app.add_subcommand("perftree", "Answer as a perftree script: DEPTH FEN [MOVES]");
    sub->add_option("depth", o->depth, "Number of plies")->required()->check(CLI::Range(0, MAX_PERFT_DEPTH));
    sub->add_option("fen", o->fen, "Root position (one argument)")->required()->transform(fen_validator());
    sub->add_option("moves", o->moves, "UCI moves to play first (one argument, space separated)");
    add_threads_option(*sub, o->threads);
    add_backend_option(*sub, o->backend);
    add_chess960_flag(*sub, o->chess960);
    return {sub, [o] { return run_perftree_command(*o); }};
}

}  // namespace perftide::cli
