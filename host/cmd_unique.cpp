// gperft unique: distinct positions after each ply (FIDE 9.2 identity), with
// each ply classified, path counts to chosen positions (--reach), and the
// final ply's mates, stalemates or dead positions written out (--emit).
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>

#include "analysis/report.hpp"
#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "cli.hpp"
#include "frontier.hpp"
#include "json.hpp"
#include "parallel.hpp"
#include "text_table.hpp"

namespace gperft::cli {
namespace {

struct UniqueOptions {
    std::string fen = chess::START_FEN;
    int depth = 0;
    bool json = false;
    Backend backend = Backend::Auto;
    int threads = 0;
    uint64_t memory_mb = 0;
    std::vector<std::string> reach;
    std::vector<std::pair<std::string, std::string>> emit;  // (kind, file)
    bool dead_search = false;
};

enum Class { MATE, STALEMATE, DEAD, OTHER, DEAD_UNKNOWN };

// What each final position is; the helpmate search runs (for positions the
// cheap tests leave open) only when asked, since it is costly.
std::vector<Class> classify_final(const frontier::Frontier& f, bool search, int threads) {
    std::vector<Class> out(f.positions.size());
    analysis::AnalyzeOptions o;
    o.search = search;
    const chess::Attacks at = chess::host_attacks();
    parallel_for(out.size(), threads, [&](size_t i) {
        analysis::PositionReport r;
        analysis::fill_position(r, f.positions[i], at);
        if (*r.checkmate) {
            out[i] = MATE;
        } else if (*r.stalemate) {
            out[i] = STALEMATE;
        } else {
            if (search) analysis::finish_analysis(r, o);
            out[i] = r.dead ? (*r.dead ? DEAD : OTHER) : (search ? DEAD_UNKNOWN : OTHER);
        }
    });
    return out;
}

// One "FEN ; count" line per position of the class, in frontier order.
void emit_class(const frontier::Frontier& f, const std::vector<Class>& classes, Class c, const std::string& path) {
    std::vector<size_t> picked;
    for (size_t i = 0; i < classes.size(); ++i)
        if (classes[i] == c) picked.push_back(i);
    std::sort(picked.begin(), picked.end(),
              [&](size_t a, size_t b) { return frontier::position_less(f.positions[a], f.positions[b]); });
    std::ofstream out(path);
    if (!out) throw std::invalid_argument("--emit: cannot write " + path);
    for (size_t i : picked) {
        std::string fen = chess::to_fen(f.positions[i]);
        fen = fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));  // the four EPD fields
        out << fen << " ; " << f.counts[i] << "\n";
    }
    if (!out) throw std::runtime_error("--emit: writing " + path + " failed");
}

uint64_t paths_to(const frontier::Frontier& f, const std::string& fen) {
    const chess::Position target = chess::canonical(chess::parse_fen(fen), chess::host_attacks());
    for (size_t i = 0; i < f.positions.size(); ++i)
        if (f.positions[i] == target) return f.counts[i];
    return 0;
}

int run_unique_command(const UniqueOptions& o) {
    static const std::map<std::string, Class> KINDS{{"mates", MATE}, {"stalemates", STALEMATE}, {"dead", DEAD}};
    for (const auto& [kind, file] : o.emit)
        if (!KINDS.count(kind)) throw std::invalid_argument("--emit: '" + kind + "' is not one of mates, stalemates, dead");
    const chess::Position root = chess::parse_fen(o.fen);
    frontier::Options fo;
    fo.budget_bytes = o.memory_mb << 20;
    fo.threads = o.threads;
    const bool gpu = resolve_backend(o.backend) == Backend::Gpu;
    const auto start = std::chrono::steady_clock::now();
    frontier::Frontier final_ply;
    auto plies = gpu ? frontier::unique_gpu(root, o.depth, fo, &final_ply)
                     : frontier::unique_host(root, o.depth, fo, &final_ply);
    const bool need_classes = o.dead_search || !o.emit.empty();
    const std::vector<Class> classes = need_classes ? classify_final(final_ply, o.dead_search, o.threads) : std::vector<Class>{};
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    uint64_t searched_dead = 0, unknown = 0;
    for (Class c : classes) searched_dead += c == DEAD, unknown += c == DEAD_UNKNOWN;
    for (const auto& [kind, file] : o.emit) emit_class(final_ply, classes, KINDS.at(kind), file);
    std::vector<std::pair<std::string, uint64_t>> reached;
    for (const std::string& fen : o.reach) reached.emplace_back(fen, paths_to(final_ply, fen));

    if (o.json) {
        std::string rows;
        for (const auto& p : plies) {
            json::Object r;
            r.raw("ply", std::to_string(p.ply)).cnt("distinct", p.distinct).cnt("paths", p.paths);
            r.cnt("in_check", p.in_check).cnt("checkmates", p.checkmates).cnt("stalemates", p.stalemates);
            r.cnt("dead", p.insufficient).cnt("check_paths", p.check_paths).cnt("checkmate_paths", p.checkmate_paths);
            r.cnt("stalemate_paths", p.stalemate_paths).cnt("dead_paths", p.insufficient_paths);
            r.raw("passes", std::to_string(p.passes));
            rows += (rows.empty() ? "" : ", ") + r.text();
        }
        json::Object obj;
        obj.str("fen", chess::to_fen(root)).raw("depth", std::to_string(o.depth)).str("backend", gpu ? "gpu" : "cpu");
        obj.num("seconds", seconds).raw("plies", "[" + rows + "]");
        if (o.dead_search) obj.cnt("dead_searched", searched_dead).cnt("dead_unknown", unknown);
        if (!reached.empty()) {
            json::Object r;
            for (const auto& [fen, n] : reached) r.cnt(fen, n);
            obj.raw("reach", r.text());
        }
        std::cout << obj.text() << std::endl;
        return EXIT_OK;
    }
    TextTable table({"ply", "distinct", "paths", "in check", "checkmates", "stalemates", "dead", "passes"});
    for (const auto& p : plies)
        table.add({std::to_string(p.ply), std::to_string(p.distinct), chess::to_string(p.paths), std::to_string(p.in_check),
                   std::to_string(p.checkmates), std::to_string(p.stalemates), std::to_string(p.insufficient),
                   std::to_string(p.passes)});
    table.print(std::cout);
    if (o.dead_search)
        std::cout << "dead at ply " << o.depth << " with the helpmate search: " << searched_dead << " (" << unknown
                  << " undecided)\n";
    for (const auto& [fen, n] : reached) std::cout << "paths to " << fen << ": " << n << "\n";
    std::fprintf(stderr, "%s backend, %.3f s\n", gpu ? "gpu" : "cpu", seconds);
    return EXIT_OK;
}

}  // namespace

Command setup_unique(CLI::App& app) {
    auto o = std::make_shared<UniqueOptions>();
    CLI::App* sub = app.add_subcommand("unique", "Count the distinct positions after each ply (FIDE 9.2 identity)");
    sub->add_option("--fen", o->fen, "Root position (default: the start position)")->check(fen_validator());
    sub->add_option("-d,--depth", o->depth, "Number of plies")->required()->check(CLI::Range(0, 20));
    sub->add_flag("--json", o->json, "Print one JSON object");
    add_backend_option(*sub, o->backend);
    sub->add_option("-t,--threads", o->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    sub->add_option("--memory", o->memory_mb,
                    "Working memory for one ply's children, in MiB; past it the ply runs in several passes "
                    "(default: a quarter of RAM, or half the GPU's free memory)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 24));
    sub->add_option("--reach", o->reach, "Print how many move paths of length depth end in this position (repeatable)")
        ->check(fen_validator());
    sub->add_option("--emit", o->emit,
                    "KIND FILE: write the final ply's positions of KIND (mates, stalemates or dead) as 'FEN ; count' "
                    "lines (repeatable)");
    sub->add_flag("--dead", o->dead_search,
                  "Run the helpmate search on the final ply's positions that the cheap tests leave open (slow)");
    return {sub, [o] { return run_unique_command(*o); }};
}

}  // namespace gperft::cli
