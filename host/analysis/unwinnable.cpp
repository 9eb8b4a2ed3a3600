// The solver's stages, cheapest first: the board itself (mate, stalemate),
// material, the static reach analysis, a short helpmate search and a short
// exhaustive search (small reachable sets: forced lines into a capture or a
// stalemate), then the exhaustive reachable-set search (the sound route to No
// in blocked positions) and a long helpmate search, taking turns with the
// budget.
#include "analysis/unwinnable.hpp"

#include <algorithm>

#include "analysis/closure_search.hpp"
#include "analysis/helpmate_search.hpp"
#include "analysis/material.hpp"
#include "analysis/reach_analysis.hpp"
#include "base/parallel.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

constexpr int QUICK_DEPTH = 3;
constexpr uint64_t QUICK_NODES = 2000;
constexpr int DEEP_DEPTH = 64;
// The short exhaustive search: the quick check's, and the fast check's where
// the side to move has at most FORCED_MOVES moves (a forced line).
constexpr uint64_t SMALL_SET_NODES = 300;
constexpr uint64_t FORCED_SET_NODES = 16;
constexpr int FORCED_MOVES = 3;

// Search objects own sizeable tables: one set per thread, reused.
struct Solver {
    HelpmateSearch helpmate;
    ClosureSearch closure;
};

Solver& solver() {
    thread_local Solver s;
    return s;
}

MateVerdict verdict(MateAnswer a, std::string reason, uint64_t nodes = 0) {
    MateVerdict v;
    v.answer = a;
    v.reason = std::move(reason);
    v.nodes = nodes;
    return v;
}

MateVerdict yes(const std::vector<Move>& line, uint64_t nodes) {
    MateVerdict v;
    v.answer = MateAnswer::Yes;
    v.helpmate = line;
    v.nodes = nodes;
    return v;
}

MateVerdict exhausted(uint64_t positions, uint64_t nodes) {
    return verdict(MateAnswer::No,
                   "exhaustive: all " + std::to_string(positions) + " reachable positions searched, none leads to mate",
                   nodes);
}

// Stage 1: what the board and the material decide, and the reach analysis.
// `moves` is set to the number of legal moves in p.
bool decide_statically(const Position& p, Color winner, MateVerdict& v, int& moves) {
    const Attacks at = host_attacks();
    moves = count_moves(p, at);
    if (moves == 0) {
        if (!in_check(p, at))
            v = verdict(MateAnswer::No, "stalemate");
        else if (p.stm == winner)
            v = verdict(MateAnswer::No, "already checkmated");
        else
            v = yes({}, 0);  // the mate is on the board
        return true;
    }
    if (const char* why = lacks_mating_material(p, winner)) {
        v = verdict(MateAnswer::No, std::string("insufficient material: ") + why);
        return true;
    }
    if (!ReachAnalysis(p, at).mate_possible(winner)) {
        v = verdict(MateAnswer::No, "reach analysis: no square the king can reach can become a mate");
        return true;
    }
    return false;
}

// The exhaustive search with at most about node_limit positions: true when
// it settles the question (the whole reachable set walked without a mate: No;
// a mate met: Yes); otherwise v is left as it was, with the nodes added to
// the `used` of earlier stages.
bool decide_small_set(const Position& p, Color winner, uint64_t node_limit, uint64_t used, MateVerdict& v) {
    ClosureSearch& c = solver().closure;
    const ClosureResult r = c.run(p, winner, node_limit);
    used += c.nodes();
    if (r == ClosureResult::Mate) v = yes(c.line(), used);
    if (r == ClosureResult::Exhausted) v = exhausted(c.nodes(), used);
    if (r == ClosureResult::OutOfBudget) v.nodes = used;
    return r != ClosureResult::OutOfBudget;
}

// Stages 1 and 2: cheap enough for every position of a batch.
bool decide_quickly(const Position& p, Color winner, const MateBudget& budget, MateVerdict& v) {
    int moves = 0;
    if (decide_statically(p, winner, v, moves)) return true;
    HelpmateSearch& h = solver().helpmate;
    if (h.run(p, winner, QUICK_DEPTH, std::min(QUICK_NODES, budget.max_nodes))) {
        v = yes(h.line(), h.nodes());
        return true;
    }
    v = verdict(MateAnswer::Unknown, "short searches found nothing", h.nodes());
    const uint64_t left = budget.max_nodes > h.nodes() ? budget.max_nodes - h.nodes() : 0;
    return left && decide_small_set(p, winner, std::min(SMALL_SET_NODES, left), h.nodes(), v);
}

// Stages 3 and 4, after decide_quickly left the question open: the
// exhaustive search and the long helpmate search take turns with growing
// shares of the budget (a sixteenth each, then the rest split evenly), so
// that whichever suits the position answers before the other spends much.
// Where the reach analysis finds fixed pieces (locked pawns and what they
// wall in) the reachable set tends to be small and the exhaustive search
// goes first; elsewhere the helpmate search does. The exhaustive search
// resumes where it stopped.
class SearchTurns {
   public:
    SearchTurns(const Position& p, Color winner, const MateBudget& budget, uint64_t used)
        : p_(p), winner_(winner), budget_(budget), used_(used), s_(solver()) {}

    uint64_t left() const { return budget_.max_nodes > used_ ? budget_.max_nodes - used_ : 0; }

    bool exhaustive(uint64_t share) {
        const uint64_t before = started_ ? s_.closure.nodes() : 0;
        const ClosureResult r = started_ ? s_.closure.resume(before + share) : s_.closure.run(p_, winner_, share);
        started_ = true;
        used_ += s_.closure.nodes() - before;
        if (r == ClosureResult::Mate) verdict_ = yes(s_.closure.line(), used_);
        if (r == ClosureResult::Exhausted) verdict_ = exhausted(s_.closure.nodes(), used_);
        return r != ClosureResult::OutOfBudget;
    }

    bool helpmate(uint64_t share) {
        if (!share) return false;
        const bool found = s_.helpmate.run(p_, winner_, DEEP_DEPTH, share);
        used_ += s_.helpmate.nodes();
        if (found) verdict_ = yes(s_.helpmate.line(), used_);
        return found;
    }

    MateVerdict run() {
        const uint64_t first = budget_.max_nodes / 16;
        const bool blocked = ReachAnalysis(p_, host_attacks()).fixed() != 0;
        const bool decided = blocked ? exhaustive(first) || helpmate(std::min(first, left()))
                                     : helpmate(std::min(first, left())) || exhaustive(first);
        if (decided || exhaustive(left() / 2) || helpmate(left())) return verdict_;
        return verdict(MateAnswer::Unknown, "node budget exhausted", used_);
    }

   private:
    const Position& p_;
    Color winner_;
    const MateBudget& budget_;
    uint64_t used_;
    Solver& s_;
    bool started_ = false;
    MateVerdict verdict_;
};

MateVerdict decide_by_search(const Position& p, Color winner, const MateBudget& budget, uint64_t used) {
    return SearchTurns(p, winner, budget, used).run();
}

}  // namespace

// A forced line is walked to its end, and only a No is kept: a mate it meets
// stays Unknown, as the fast check proves only that a side cannot mate.
MateVerdict can_checkmate_fast(const Position& p, Color winner) {
    MateVerdict v;
    int moves = 0;
    if (decide_statically(p, winner, v, moves)) return v;
    if (moves <= FORCED_MOVES && decide_small_set(p, winner, FORCED_SET_NODES, 0, v) && v.answer == MateAnswer::No)
        return v;
    return verdict(MateAnswer::Unknown, "not proven unwinnable by the fast check");
}

MateVerdict can_checkmate_quickly(const Position& p, Color winner, const MateBudget& budget) {
    MateVerdict v;
    decide_quickly(p, winner, budget, v);
    return v;
}

MateVerdict can_checkmate(const Position& p, Color winner, const MateBudget& budget) {
    MateVerdict v;
    if (decide_quickly(p, winner, budget, v)) return v;
    return decide_by_search(p, winner, budget, v.nodes);
}

MateAnswer DeadVerdict::dead() const {
    if (white.answer == MateAnswer::Yes || black.answer == MateAnswer::Yes) return MateAnswer::No;
    if (white.answer == MateAnswer::No && black.answer == MateAnswer::No) return MateAnswer::Yes;
    return MateAnswer::Unknown;
}

DeadVerdict dead_position(const Position& p, const MateBudget& budget) {
    return {can_checkmate(p, WHITE, budget), can_checkmate(p, BLACK, budget)};
}

std::vector<DeadVerdict> classify_dead_quick(const std::vector<Position>& positions, const MateBudget& budget,
                                             int threads) {
    std::vector<DeadVerdict> out(positions.size());
    // Each item is one side of one position: item 2i is White, 2i+1 Black.
    parallel_for(2 * positions.size(), threads, [&](size_t item) {
        MateVerdict& v = item & 1 ? out[item / 2].black : out[item / 2].white;
        decide_quickly(positions[item / 2], Color(item & 1), budget, v);
    });
    return out;
}

void complete_dead(const std::vector<Position>& positions, std::vector<DeadVerdict>& verdicts,
                   const MateBudget& budget, int threads) {
    std::vector<size_t> todo;
    for (size_t i = 0; i < positions.size(); ++i) {
        if (verdicts[i].white.answer == MateAnswer::Unknown) todo.push_back(2 * i);
        if (verdicts[i].black.answer == MateAnswer::Unknown) todo.push_back(2 * i + 1);
    }
    parallel_for(todo.size(), threads, [&](size_t k) {
        const size_t item = todo[k];
        MateVerdict& v = item & 1 ? verdicts[item / 2].black : verdicts[item / 2].white;
        v = decide_by_search(positions[item / 2], Color(item & 1), budget, v.nodes);
    });
}

std::vector<DeadVerdict> classify_dead(const std::vector<Position>& positions, const MateBudget& budget,
                                       int threads) {
    std::vector<DeadVerdict> out = classify_dead_quick(positions, budget, threads);
    complete_dead(positions, out, budget, threads);
    return out;
}

const char* answer_name(MateAnswer a) {
    switch (a) {
        case MateAnswer::Yes: return "yes";
        case MateAnswer::No: return "no";
        default: return "unknown";
    }
}

}  // namespace perftide::analysis
