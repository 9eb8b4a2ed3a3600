// gperft suite FILE: check every position of a perft suite at every listed
// depth (within --max-depth / --max-nodes), print a pass/fail table, and exit
// 1 naming the first failure. Entries whose FEN is refused (impossible
// castling rights, say) are listed as "refused" with the reason and make the
// exit status 2 when nothing failed. Chess960 rights (X-FEN, Shredder-FEN)
// are read as such.
#include <cstdio>
#include <iostream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "cli.hpp"
#include "suite.hpp"

namespace gperft::cli {
namespace {

struct SuiteOptions {
    std::string file;
    int max_depth = 64;
    double max_nodes = 0;  // 0: no limit
    int threads = 0;
    Backend backend = Backend::Auto;
    bool chess960 = false;
};

int run_suite_command(const SuiteOptions& o) {
    const std::vector<SuiteEntry> entries = read_suite_file(o.file);
    int passed = 0, failed = 0, skipped = 0, refused = 0;
    std::string first_failure;
    for (const SuiteEntry& e : entries) {
        chess::Position root;
        try {
            root = position_from(e.fen, "", o.chess960);
        } catch (const chess::FenError& err) {
            std::printf("%-7s %-12s %-72s %s\n", "refused", e.id.c_str(), e.fen.c_str(), err.what());
            ++refused;
            continue;
        }
        std::string verdict = "pass", detail;
        int checked = 0;
        for (const auto& [depth, expected] : e.expected) {
            if (depth > o.max_depth || (o.max_nodes > 0 && double(expected) > o.max_nodes)) continue;
            const PerftResult r = run_perft(root, depth, o.backend, o.threads);
            ++checked;
            if (r.nodes != expected) {
                verdict = "FAIL";
                detail = "depth " + std::to_string(depth) + ": expected " + chess::to_string(expected) + ", got " +
                         chess::to_string(r.nodes);
                break;
            }
        }
        if (checked == 0) verdict = "skip";
        std::printf("%-7s %-12s %-72s %s\n", verdict.c_str(), e.id.c_str(), e.fen.c_str(), detail.c_str());
        if (verdict == "FAIL") {
            if (failed++ == 0) first_failure = e.id + " (" + e.fen + ") at " + detail;
        } else if (verdict == "skip") {
            ++skipped;
        } else {
            ++passed;
        }
    }
    std::printf("\n%d passed, %d failed, %d skipped, %d refused, %zu positions\n", passed, failed, skipped, refused,
                entries.size());
    if (failed) {
        std::printf("first failure: %s\n", first_failure.c_str());
        return EXIT_MISMATCH;
    }
    return refused ? EXIT_BAD_INPUT : EXIT_OK;
}

}  // namespace

Command setup_suite(CLI::App& app) {
    auto o = std::make_shared<SuiteOptions>();
    CLI::App* sub = app.add_subcommand("suite", "Check a perft suite file (EPD ';D1 20' or python-chess format)");
    sub->add_option("file", o->file, "Suite file")->required()->check(CLI::ExistingFile);
    sub->add_option("--max-depth", o->max_depth, "Skip depths above this")->check(CLI::Range(0, 64));
    sub->add_option("--max-nodes", o->max_nodes, "Skip depths whose expected count is above this")
        ->check(positive_count_validator());
    sub->add_option("-t,--threads", o->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    add_backend_option(*sub, o->backend);
    add_chess960_flag(*sub, o->chess960);
    return {sub, [o] { return run_suite_command(*o); }};
}

}  // namespace gperft::cli
