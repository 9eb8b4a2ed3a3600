// The per-ply step of the distinct-position count, shared by a single
// process and a distributed run: expand, (exchange between processes),
// classify. Plain C++: the engines hold the Thrust code.
#include "chess/attacks.hpp"
#include "chess/movegen.hpp"
#include "frontier/frontier.hpp"

namespace perftide::frontier {

namespace {

// Runs a process's own work; in a distributed run every process then
// learns whether it failed anywhere (Exchange::agree), so none is left
// waiting in the next collective for one that has given up.
template <class Step>
auto own_work(Exchange* x, int ply, Step&& step) {
    if (!x) return step();
    std::exception_ptr failure;
    decltype(step()) result{};
    try {
        result = step();
    } catch (...) {
        failure = std::current_exception();
    }
    x->agree(ply, failure);
    return result;
}

}  // namespace

std::vector<chess::u128> count_fields(const PlyCounts& c) {
    return {c.distinct,     c.paths,       c.in_check,        c.checkmates,      c.stalemates,         c.insufficient,
            c.check_paths,  c.checkmate_paths, c.stalemate_paths, c.insufficient_paths, c.en_passant, c.castling};
}

const std::vector<const char*>& count_field_names() {
    static const std::vector<const char*> names{"distinct",    "paths",           "in_check",        "checkmates",
                                                "stalemates",  "dead",            "check_paths",     "checkmate_paths",
                                                "stalemate_paths", "dead_paths", "en_passant",      "castling"};
    return names;
}

PlyCounts from_fields(int ply, int passes, const std::vector<chess::u128>& f) {
    PlyCounts c;
    c.ply = ply, c.passes = passes;
    c.distinct = uint64_t(f.at(0)), c.paths = f.at(1), c.in_check = uint64_t(f.at(2)), c.checkmates = uint64_t(f.at(3));
    c.stalemates = uint64_t(f.at(4)), c.insufficient = uint64_t(f.at(5));
    c.check_paths = f.at(6), c.checkmate_paths = f.at(7), c.stalemate_paths = f.at(8), c.insufficient_paths = f.at(9);
    c.en_passant = uint64_t(f.at(10)), c.castling = uint64_t(f.at(11));
    return c;
}

Frontier root_frontier(const chess::Position& root) { return {{chess::canonical(root, chess::host_attacks())}, {1}}; }

std::vector<PlyCounts> run_plies(Expander& expander, const Frontier& start, int depth, Exchange* x, Frontier* final_ply,
                                 const PlyObserver& observe) {
    const auto sum = [&](const PlyCounts& c) { return x ? x->sum(c) : c; };
    Frontier part;  // in a distributed run, between expansion and classification
    // Shows the observer the ply held, which the expander then holds again.
    const auto show = [&](int ply) {
        if (!observe) return;
        own_work(x, ply, [&] {
            expander.take(part);
            return 0;
        });
        observe(ply, part);
        own_work(x, ply, [&] {
            expander.load(part);
            part = {};
            return 0;
        });
    };
    std::vector<PlyCounts> plies{sum(own_work(x, 0, [&] {
        expander.load(start);
        return expander.classify(0, 1);
    }))};
    show(0);
    for (int ply = 1; ply <= depth; ++ply) {
        if (!x && !final_ply && !observe && ply == depth) {  // nothing of the last ply is kept
            plies.push_back(expander.expand_last(ply));
            break;
        }
        const int passes = own_work(x, ply, [&] {
            const int p = expander.expand();
            if (x) expander.take(part);
            return p;
        });
        if (x) x->exchange(part);
        plies.push_back(sum(own_work(x, ply, [&] {
            if (x) expander.load(part);
            part = {};
            return expander.classify(ply, passes);
        })));
        show(ply);
    }
    if (final_ply) own_work(x, depth, [&] {
            expander.take(*final_ply);
            return 0;
        });
    return plies;
}

std::vector<PlyCounts> unique_cpu(const chess::Position& root, int depth, const Options& o, Frontier* final_ply) {
    return run_plies(*make_cpu_expander(o), root_frontier(root), depth, nullptr, final_ply);
}

}  // namespace perftide::frontier
