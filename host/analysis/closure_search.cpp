#include "analysis/closure_search.hpp"

#include <algorithm>

#include "analysis/material.hpp"
#include "analysis/reach_analysis.hpp"

namespace gperft::analysis {

using namespace chess;

ClosureSearch::ClosureSearch() : at_(host_attacks()), zobrist_(host_zobrist()), seen_(1024) {}

// Sized for the expected number of positions (at most half full), so that
// growing is rare; large tables are given back between questions.
void ClosureSearch::clear_seen(uint64_t expected) {
    size_t size = 1024;
    while (size < 2 * expected && size < (size_t(1) << 24)) size *= 2;
    if (seen_.size() != size)
        seen_ = ZeroedPages<Key128>(size);
    else
        std::fill(seen_.data(), seen_.data() + size, Key128{});
    seen_count_ = 0;
}

bool ClosureSearch::insert(Key128 key) {
    if (key.lo == 0 && key.hi == 0) key.lo = 1;  // keep {0, 0} free
    if (2 * (seen_count_ + 1) > seen_.size()) {    // grow at half load
        ZeroedPages<Key128> old(seen_.size() * 2);
        std::swap(old, seen_);
        seen_count_ = 0;
        for (size_t i = 0; i < old.size(); ++i)
            if (old[i].lo || old[i].hi) insert(old[i]);
    }
    const size_t mask = seen_.size() - 1;
    for (size_t i = key.hi & mask;; i = (i + 1) & mask) {
        if (seen_[i] == key) return false;
        if (!seen_[i].lo && !seen_[i].hi) {
            seen_[i] = key;
            ++seen_count_;
            return true;
        }
    }
}

void ClosureSearch::build_line(uint32_t node, Move last) {
    line_.assign(1, last);
    for (; node != 0; node = nodes_[node].parent) line_.push_back(nodes_[node].move);
    std::reverse(line_.begin(), line_.end());
}

// The reach analysis costs as much as expanding a dozen positions. After every
// capture it runs always; after pawn moves, once it has been tried often and
// rarely ended a branch, on one position in eight only (skipping it only ever
// costs more positions, never soundness).
bool ClosureSearch::worth_analysing() {
    ++analysis_calls_;
    return analysis_calls_ < 64 || 16 * analysis_hits_ >= analysis_calls_ || analysis_calls_ % 8 == 0;
}

ClosureResult ClosureSearch::run(const Position& root, Color winner, uint64_t node_limit) {
    winner_ = winner;
    analysis_calls_ = analysis_hits_ = 0;
    nodes_.clear();
    clear_seen(std::min<uint64_t>(node_limit, 1 << 16));
    line_.clear();
    insert(zobrist_.key(canonical(root, at_)));
    nodes_.push_back({root, 0, Move()});
    head_ = 0;
    return resume(node_limit);
}

// Expands whole positions in breadth-first order while fewer than node_limit
// are stored (so the last expansion may overshoot it by one position's moves).
ClosureResult ClosureSearch::resume(uint64_t node_limit) {
    Position children[MAX_MOVES];
    Key128 keys[MAX_MOVES];
    for (; head_ < nodes_.size(); ++head_) {
        if (nodes_.size() >= node_limit) return ClosureResult::OutOfBudget;
        const Position q = nodes_[head_].pos;
        MoveList list;
        generate_moves(q, at_, list);
        // Keys first, their table slots fetched ahead: the table outgrows the
        // caches, and each lookup would otherwise wait for memory in turn.
        // Each child's key is the parent's with the changed squares rehashed.
        const Key128 parent_key = zobrist_.key(q);
        for (int i = 0; i < list.size; ++i) {
            children[i] = apply_move(q, list.moves[i]);
            keys[i] = zobrist_.child_key(q, canonical(children[i], at_), parent_key);
            __builtin_prefetch(&seen_[keys[i].hi & (seen_.size() - 1)]);
        }
        for (int i = 0; i < list.size; ++i) {
            const Move m = list.moves[i];
            const Position& c = children[i];
            if (q.stm == winner_ && in_check(c, at_) && count_moves(c, at_) == 0) {
                build_line(uint32_t(head_), m);
                return ClosureResult::Mate;
            }
            if (!insert(keys[i])) continue;
            if (lacks_mating_material(c, winner_)) continue;
            // Captures and pawn moves change what can ever move; other moves
            // keep every piece inside the regions the parent's analysis saw.
            const bool irreversible = m.is_capture() || (q.pawns & square_bb(m.from()));
            if (irreversible && (m.is_capture() || worth_analysing()) &&
                !ReachAnalysis(c, at_).mate_possible(winner_)) {
                analysis_hits_ += !m.is_capture();
                continue;
            }
            nodes_.push_back({c, uint32_t(head_), m});
        }
    }
    return ClosureResult::Exhausted;
}

}  // namespace gperft::analysis
