// perftide verify: differential check of the move generator against the
// independent reference on random positions (see verify.hpp). Exit 0 with a
// summary when clean; exit 1 naming the position, the path to it from its
// root and the moves one generator has that the other lacks.
#include <cstdio>
#include <iostream>

#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "inputs/suite.hpp"
#include "output/progress.hpp"
#include "output/words.hpp"
#include "verify/verify.hpp"

namespace perftide::cli {
namespace {

struct VerifyCommandOptions {
    VerifyOptions run;
    std::vector<std::string> fens;
    std::string suite;
    bool chess960 = false;
    bool no_chess960_starts = false;
    bool json = false;
};

// The start position, every --fen, and every entry of --suite that the FEN
// parser accepts.
std::vector<chess::Position> roots_of(const VerifyCommandOptions& o) {
    std::vector<chess::Position> roots{chess::parse_fen(chess::START_FEN)};
    for (const auto& fen : o.fens) roots.push_back(position_from(fen, "", o.chess960));
    if (o.suite.empty()) return roots;
    int refused = 0;
    for (const SuiteEntry& e : read_suite_file(o.suite)) {
        try {
            roots.push_back(position_from(e.fen, "", o.chess960));
        } catch (const chess::FenError&) {
            ++refused;
        }
    }
    if (refused) std::fprintf(stderr, "verify: %d suite entries skipped (their FEN is refused)\n", refused);
    return roots;
}

void print_mismatch(const Mismatch& m) {
    std::printf("verify: MISMATCH in sample %d: %s: %s\n", m.sample, m.check.c_str(), m.detail.c_str());
    std::printf("  root:            %s\n", m.root_fen.c_str());
    std::printf("  path:            %s\n", join_words(m.path).c_str());
    std::printf("  position:        %s\n", m.fen.c_str());
    std::printf("  reference reads: %s\n", m.reference_fen.c_str());
    if (!m.only_common.empty() || !m.only_reference.empty()) {
        std::printf("  only perftide:     %s\n", join_words(m.only_common).c_str());
        std::printf("  only reference:  %s\n", join_words(m.only_reference).c_str());
    }
}

int run_verify_command(VerifyCommandOptions& o) {
    o.run.roots = roots_of(o);
    o.run.chess960_starts = !o.no_chess960_starts;
    VerifyReport r;
    {
        Progress bar(size_t(o.run.positions), {.what = "samples"});  // cleared before the report
        o.run.progress = &bar;
        r = run_verify(o.run);
        o.run.progress = nullptr;
    }
    if (o.json) {
        std::cout << verify_json(o.run, r) << std::endl;
        return r.mismatch ? EXIT_MISMATCH : EXIT_OK;
    }
    if (r.mismatch) {
        print_mismatch(*r.mismatch);
        return EXIT_MISMATCH;
    }
    std::printf("verify: clean: %s from %s%s (depth %d, seed %llu): %llu nodes with move sets "
                "compared, %llu leaf positions compared, %.1f s\n",
                counted(r.samples, "position", "positions").c_str(),
                counted(o.run.roots.size(), "root", "roots").c_str(),
                o.run.chess960_starts ? " and random Chess960 and Double Chess960 starts" : "", o.run.depth, (unsigned long long)o.run.seed,
                (unsigned long long)r.nodes, (unsigned long long)r.leaves, r.seconds);
    return EXIT_OK;
}

}  // namespace

Command setup_verify(CLI::App& app) {
    auto o = std::make_shared<VerifyCommandOptions>();
    CLI::App* sub = app.add_subcommand(
        "verify", "Compare the move generator with the independent reference on random positions");
    add_progress_option(*sub);
    sub->add_option("-n,--positions", o->run.positions, "Random positions to sample")
        ->check(CLI::Range(1, 100000000));
    sub->add_option("-d,--depth", o->run.depth,
                    "Plies below each sample: move sets are compared wherever perft DEPTH generates moves")
        ->check(CLI::Range(0, 8));
    sub->add_option("--seed", o->run.seed, "Random seed (same seed, same positions)")->check(seed_validator());
    sub->add_option("--fen", o->fens, "Also start playouts from this position (repeatable)")
        ->transform(fen_validator());
    sub->add_option("--suite", o->suite, "Also start playouts from every position of this suite file")
        ->check(CLI::ExistingFile);
    sub->add_option("--max-playout", o->run.max_playout, "Most random plies played before a sample")
        ->check(CLI::Range(0, 1000));
    add_threads_option(*sub, o->run.threads);
    add_chess960_flag(*sub, o->chess960);
    sub->add_flag("--no-chess960-starts", o->no_chess960_starts,
                  "Sample only from the start position, --fen and --suite (by default every third sample starts "
                  "from a random Chess960 array, and every third from a Double Chess960 pair)");
    sub->add_flag("--json", o->json, "Print one JSON object (result, sizes, and the mismatch's fields)");
    return {sub, [o] { return run_verify_command(*o); }};
}

}  // namespace perftide::cli
