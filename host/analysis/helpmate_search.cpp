#include "analysis/helpmate_search.hpp"

#include <algorithm>

#include "analysis/material.hpp"
#include "analysis/move_heuristics.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

constexpr size_t TT_SIZE = size_t(1) << 19;  // entries: 8 MB per search object, faulted in as used
constexpr uint64_t ITERATION_NODES = 3000;   // an iteration's node cap, per ply of depth

bool is_mate(const Position& p, const Attacks& at) { return in_check(p, at) && count_moves(p, at) == 0; }

}  // namespace

HelpmateSearch::HelpmateSearch() : at_(host_attacks()), zobrist_(host_zobrist()), tt_(TT_SIZE) {}

bool HelpmateSearch::run(const Position& root, Color winner, int max_depth, uint64_t node_limit) {
    winner_ = winner;
    nodes_ = 0;
    line_.clear();
    if (++generation_ == 0) {  // wrapped: old entries could look current
        std::fill(tt_.data(), tt_.data() + tt_.size(), TTEntry{});
        generation_ = 1;
    }
    // Each iteration may spend ITERATION_NODES per ply of its depth; one
    // that runs out is cut short and the next, deeper one starts, so a long
    // helpmate down the first-ordered lines is reached without first
    // exhausting every shallower tree. The whole run stops at node_limit.
    for (int depth = 1; depth <= max_depth; ++depth) {
        aborted_ = false;
        limit_ = std::min(node_limit, nodes_ + ITERATION_NODES * uint64_t(depth));
        if (search(root, depth, 0, false)) return true;
        if (nodes_ >= node_limit) break;
    }
    return false;
}

// Depth-first search below p with `depth` to spend. Every move of the winner
// is tested for mate whatever depth is left; a child is searched only when
// depth remains after the move's cost.
bool HelpmateSearch::search(const Position& p, int depth, int ply, bool past_progress) {
    if (++nodes_ > limit_) {
        aborted_ = true;
        return false;
    }
    if (ply >= MAX_PLY || lacks_mating_material(p, winner_)) return false;
    const Key128 key = zobrist_.key(p);
    TTEntry& e = tt_[key.hi & (TT_SIZE - 1)];
    if (e.generation == generation_ && e.check == key.lo && e.depth >= depth) return false;
    e = {key.lo, int16_t(depth), generation_};

    MoveList list;
    generate_moves(p, at_, list);
    const MateTargets targets(p, winner_);
    struct Scored {
        Move move;
        Progress kind;
    };
    // Rewarded moves first, then normal, then punished, each kind in
    // generation order (a stable counting sort on the three kinds).
    Progress kinds[MAX_MOVES];
    int count[3] = {0, 0, 0};
    for (int i = 0; i < list.size; ++i) {
        kinds[i] = classify(p, list.moves[i], winner_, targets);
        ++count[int(kinds[i])];
    }
    int start[3] = {0, count[0], count[0] + count[1]};
    Scored moves[MAX_MOVES];
    for (int i = 0; i < list.size; ++i) moves[start[int(kinds[i])]++] = {list.moves[i], kinds[i]};

    const bool winner_to_move = p.stm == winner_;
    for (int i = 0; i < list.size; ++i) {
        const Position child = apply_move(p, moves[i].move);
        stack_[ply] = moves[i].move;
        if (winner_to_move && is_mate(child, at_)) {
            line_.assign(stack_, stack_ + ply + 1);
            return true;
        }
        const int left = depth - progress_cost(moves[i].kind, past_progress);
        if (left < 1) continue;
        if (search(child, left, ply + 1, moves[i].kind == Progress::Reward)) return true;
        if (aborted_) return false;
    }
    return false;
}

}  // namespace perftide::analysis
