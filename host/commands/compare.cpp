// perftide compare: runs another engine's `go perft` next to perftide's and
// finds the first divergence by itself: compare the divides, descend into a
// move whose counts differ, repeat down to depth 1, and name the position,
// the path to it and the moves one side has that the other lacks.
// Exit 0 when they agree, 1 on a divergence, 2 when the engine fails.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "deep/deep_perft.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "uci_client/uci_engine.hpp"

namespace perftide::cli {
namespace {

using chess::u128;
using Counts = std::map<std::string, u128>;

struct CompareOptions {
    std::string engine;
    std::string fen = chess::START_FEN;
    std::string moves;
    int depth = 0;
    double timeout = 60;
    int threads = 0;
    BackendChoice backend = BackendChoice::Auto;
    bool chess960 = false;
    bool json = false;
};

// How the two divides of one position differ.
struct DivideDiff {
    std::vector<std::string> missing, extra;  // moves the engine lacks / has on its own
    std::vector<std::string> differing;       // moves both have, with different counts
};

DivideDiff diff_of(const Counts& ours, const Counts& theirs) {
    DivideDiff d;
    for (const auto& [m, n] : ours) {
        const auto it = theirs.find(m);
        if (it == theirs.end())
            d.missing.push_back(m);
        else if (it->second != n)
            d.differing.push_back(m);
    }
    for (const auto& [m, n] : theirs)
        if (!ours.count(m)) d.extra.push_back(m);
    return d;
}

std::string count_pairs(const std::vector<std::string>& moves, const Counts& ours, const Counts& theirs) {
    std::string s;
    for (const auto& m : moves)
        s += (s.empty() ? "" : ", ") + m + " (perftide " + chess::to_string(ours.at(m)) + ", engine " +
             chess::to_string(theirs.at(m)) + ")";
    return s;
}

class Bisection {
public:
    Bisection(const CompareOptions& o, engine::UciEngine& engine)
        : o_(o), engine_(engine), backend_(open_backend(o.backend, o.threads)),
          root_fen_(chess::to_fen(position_from(o.fen, "", o.chess960))) {
        // The moves as the engine's mode writes them (castling e1g1 or e1h1).
        chess::Position p = position_from(o.fen, "", o.chess960);
        std::istringstream in(o.moves);
        for (std::string text; in >> text;) {
            const chess::Move m = chess::parse_uci_move(p, text);
            root_moves_.push_back(chess::move_to_uci(m, p.chess960));
            p = chess::apply_move(p, m);
        }
    }

    int run();

private:
    // perftide's divide, with its progress line (the engine's own perft
    // shows none: it is one `go perft` answered at its end).
    Counts ours(const chess::Position& p, int depth) const {
        Progress bar(0, {.what = "subtrees"});
        Counts c;
        for (const auto& [m, n] : count_perft(*backend_, p, depth, {}, &bar).divide)
            c[chess::move_to_uci(m, p.chess960)] = n;
        return c;
    }
    Counts theirs(int depth) {
        std::vector<std::string> all = root_moves_;
        all.insert(all.end(), path_.begin(), path_.end());
        Counts c;
        for (const auto& [m, n] : engine_.perft(root_fen_, all, depth).moves) c[m] = n;
        return c;
    }
    static u128 total(const Counts& c) {
        u128 t = 0;
        for (const auto& [m, n] : c) t += n;
        return t;
    }
    void report(const chess::Position& p, int depth, const DivideDiff& d, const Counts& ours, const Counts& theirs);

    std::string engine_name() const { return engine_.name().empty() ? o_.engine : engine_.name(); }

    const CompareOptions& o_;
    engine::UciEngine& engine_;
    std::unique_ptr<Backend> backend_;
    std::string root_fen_;
    std::vector<std::string> root_moves_, path_;
    // --json: the object being filled, and the steps of the descent.
    json::Object out_;
    std::vector<std::string> steps_;
    std::string note_;
};

int Bisection::run() {
    chess::Position p = position_from(o_.fen, o_.moves, o_.chess960);
    u128 parent_ours = 0, parent_theirs = 0;
    for (int depth = o_.depth; depth >= 1; --depth) {
        const Counts us = ours(p, depth), them = theirs(depth);
        const DivideDiff d = diff_of(us, them);
        const bool agree = d.missing.empty() && d.extra.empty() && d.differing.empty();
        if (depth == o_.depth) {
            out_.str("result", agree ? "agree" : "disagree").integer("depth", depth);
            out_.str("engine", engine_name()).cnt("nodes_perftide", total(us)).cnt("nodes_engine", total(them));
            if (agree && o_.json) std::cout << out_.text() << std::endl;
            if (agree && !o_.json)
                std::printf("compare: agree at depth %d: %s nodes (engine: %s)\n", depth,
                            chess::to_string(total(us)).c_str(), engine_name().c_str());
            if (agree) return EXIT_OK;
            if (!o_.json)
                std::printf("compare: disagree at depth %d: perftide %s nodes, engine %s\n", depth,
                            chess::to_string(total(us)).c_str(), chess::to_string(total(them)).c_str());
        }
        if (!d.missing.empty() || !d.extra.empty() || d.differing.empty() || depth == 1) {
            if (agree) {
                note_ = "the engine counted " + chess::to_string(parent_theirs) + " below " + path_.back() +
                        " one ply up, but its divide here adds up to " + chess::to_string(total(them)) +
                        ": its counts depend on how the position is reached";
                if (!o_.json) std::printf("  %s\n", note_.c_str());
            }
            report(p, depth, d, us, them);
            return EXIT_MISMATCH;
        }
        // Descend into the differing move with the smallest subtree: the
        // cheapest way down.
        std::string next = d.differing.front();
        for (const auto& m : d.differing)
            if (us.at(m) < us.at(next)) next = m;
        parent_ours = us.at(next);
        parent_theirs = them.at(next);
        if (o_.json) {
            json::Object step;
            step.integer("depth", depth).str("move", next);
            step.cnt("perftide", parent_ours).cnt("engine", parent_theirs);
            steps_.push_back(step.text());
        } else {
            std::printf("  depth %d: %s: perftide %s, engine %s\n", depth, next.c_str(),
                        chess::to_string(parent_ours).c_str(), chess::to_string(parent_theirs).c_str());
        }
        path_.push_back(next);
        p = chess::apply_move(p, chess::parse_uci_move(p, next));
    }
    return EXIT_MISMATCH;  // not reached: depth 1 always reports
}

void Bisection::report(const chess::Position& p, int depth, const DivideDiff& d, const Counts& ours,
                       const Counts& theirs) {
    std::vector<std::string> all = root_moves_;
    all.insert(all.end(), path_.begin(), path_.end());
    if (o_.json) {
        json::Array steps;
        for (const std::string& step : steps_) steps.raw(step);
        json::Object differ;
        for (const auto& m : d.differing) {
            json::Object pair;
            pair.cnt("perftide", ours.at(m)).cnt("engine", theirs.at(m));
            differ.raw(m, pair.text());
        }
        json::Object div;
        div.str("root", root_fen_).raw("root_moves", json::strings(root_moves_)).raw("path", json::strings(path_));
        div.str("position", chess::to_fen(p)).integer("depth", depth);
        div.raw("missing_in_engine", json::strings(d.missing)).raw("extra_in_engine", json::strings(d.extra));
        div.raw("counts_differ", differ.text());
        div.str("reproduce", "position fen " + root_fen_ + (all.empty() ? "" : " moves ") + join_words(all, "") +
                                 "\ngo perft " + std::to_string(depth));
        if (!note_.empty()) div.str("note", note_);
        out_.raw("descent", steps.text()).raw("first_divergence", div.text());
        std::cout << out_.text() << std::endl;
        return;
    }
    std::printf("first divergence:\n");
    std::printf("  root:       %s%s%s\n", root_fen_.c_str(), root_moves_.empty() ? "" : " moves ",
                join_words(root_moves_, "").c_str());
    std::printf("  path:       %s\n", join_words(path_).c_str());
    std::printf("  position:   %s\n", chess::to_fen(p).c_str());
    std::printf("  depth:      %d\n", depth);
    std::printf("  missing in the engine: %s\n", join_words(d.missing).c_str());
    std::printf("  extra in the engine:   %s\n", join_words(d.extra).c_str());
    if (!d.differing.empty()) std::printf("  counts differ:         %s\n", count_pairs(d.differing, ours, theirs).c_str());
    std::printf("  reproduce:  position fen %s%s%s\n             go perft %d\n", root_fen_.c_str(),
                all.empty() ? "" : " moves ", join_words(all, "").c_str(), depth);
}

int run_compare_command(const CompareOptions& o) {
    // A bad FEN or move is exit 2 before the engine starts.
    const bool chess960 = position_from(o.fen, o.moves, o.chess960).chess960;
    try {
        engine::UciEngine engine(o.engine, o.timeout);
        if (chess960) engine.set_option("UCI_Chess960", "true");
        return Bisection(o, engine).run();
    } catch (const engine::EngineError& e) {
        error(e.what());
        return EXIT_BAD_INPUT;
    }
}

}  // namespace

Command setup_compare(CLI::App& app) {
    auto o = std::make_shared<CompareOptions>();
    CLI::App* sub = app.add_subcommand(
        "compare", "Compare perft with a UCI engine ('go perft') and find the first divergence");
    sub->add_option("--engine", o->engine, "Engine command line, run through /bin/sh -c")
        ->required()
        ->check(CLI::Validator(
            [](std::string& cmd) {
                return cmd.find_first_not_of(" \t") == std::string::npos ? std::string("the engine command is empty")
                                                                           : std::string();
            },
            "CMD"));
    sub->add_option("--fen", o->fen, "Root position (default: the start position)")->transform(fen_validator());
    sub->add_option("--moves", o->moves, "UCI moves to play from the FEN first, space separated");
    sub->add_option("-d,--depth", o->depth, "Number of plies")->required()->check(CLI::Range(1, 20));
    sub->add_option("--timeout", o->timeout, "Seconds to wait for each engine answer (default 60)")
        ->check(CLI::Range(0.01, 1e6));
    add_threads_option(*sub, o->threads);
    add_backend_option(*sub, o->backend);
    add_progress_option(*sub);
    add_chess960_flag(*sub, o->chess960);
    sub->add_flag("--json", o->json,
                  "Print one JSON object: the verdict, the descent and the first divergence's fields");
    return {sub, [o] { return run_compare_command(*o); }};
}

}  // namespace perftide::cli
