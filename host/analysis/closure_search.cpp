#include "analysis/closure_search.hpp"

#include <algorithm>

#include "analysis/material.hpp"
#include "analysis/move_heuristics.hpp"
#include "analysis/reach_analysis.hpp"

namespace perftide::analysis {

using namespace chess;

ClosureSearch::ClosureSearch() : at_(host_attacks()), zobrist_(host_zobrist()) {}

namespace {

// The first n entries of t, zeroed: t is replaced only when too small.
void zero_prefix(ZeroedPages<Key128>& t, size_t n) {
    if (t.size() < n)
        t = ZeroedPages<Key128>(n);
    else
        std::fill(t.data(), t.data() + n, Key128{});
}

}  // namespace

// Sized for the expected number of positions (at most half full), so that
// growing is rare.
void ClosureSearch::clear_seen(uint64_t expected) {
    size_t size = 1024;
    while (size < 2 * expected && size < (size_t(1) << 24)) size *= 2;
    zero_prefix(seen_, size);
    slots_ = size;
    seen_count_ = 0;
}

void ClosureSearch::grow_seen() {
    zero_prefix(spare_, 2 * slots_);
    std::swap(seen_, spare_);
    const size_t old_slots = slots_;
    slots_ *= 2;
    seen_count_ = 0;
    for (size_t i = 0; i < old_slots; ++i)
        if (spare_[i].lo || spare_[i].hi) insert(spare_[i]);
}

bool ClosureSearch::insert(Key128 key) {
    if (key.lo == 0 && key.hi == 0) key.lo = 1;  // keep {0, 0} free
    if (2 * (seen_count_ + 1) > slots_) grow_seen();  // grow at half load
    const size_t mask = slots_ - 1;
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
    chess960_ = root.chess960;
    analysis_calls_ = analysis_hits_ = 0;
    nodes_.clear();
    clear_seen(std::min<uint64_t>(node_limit, 1 << 16));
    line_.clear();
    const Position start = canonical(root, at_);
    insert(zobrist_.key(start));
    nodes_.push_back({pack(start), 0, Move()});
    for (Bucket& b : frontier_) {
        b.nodes.clear();
        b.next = 0;
    }
    frontier_[0].nodes.push_back(0);
    cost_ = 0;
    waiting_ = 1;
    return resume(node_limit);
}

// The cheapest waiting position (first come, first served within a cost).
bool ClosureSearch::next_node(uint32_t& node) {
    if (!waiting_) return false;
    for (;; ++cost_) {
        Bucket& b = frontier_[cost_ % RING];
        if (b.next < b.nodes.size()) {
            node = b.nodes[b.next++];
            --waiting_;
            return true;
        }
        b.nodes.clear();
        b.next = 0;
    }
}

// Expands the cheapest waiting position while fewer than node_limit are
// stored (so the last expansion may overshoot it by one position's moves).
ClosureResult ClosureSearch::resume(uint64_t node_limit) {
    Position children[MAX_MOVES];
    Key128 keys[MAX_MOVES];
    for (uint32_t node; nodes_.size() < node_limit;) {
        if (!next_node(node)) return ClosureResult::Exhausted;
        const Position q = unpack(nodes_[node].pos, chess960_);
        MoveList list;
        generate_moves(q, at_, list);
        // Keys first, their table slots fetched ahead: the table outgrows the
        // caches, and each lookup would otherwise wait for memory in turn.
        // Each child's key is the parent's with the changed squares rehashed.
        const Key128 parent_key = zobrist_.key(q);
        for (int i = 0; i < list.size; ++i) {
            children[i] = canonical(apply_move(q, list.moves[i]), at_);
            keys[i] = zobrist_.child_key(q, children[i], parent_key);
            __builtin_prefetch(&seen_[keys[i].hi & (slots_ - 1)]);
        }
        const MateTargets targets(q, winner_);
        for (int i = 0; i < list.size; ++i) {
            const Move m = list.moves[i];
            const Position& c = children[i];
            // A position seen before was tested for mate then: every way
            // into it is a move by the same side (the one not to move in it).
            if (!insert(keys[i])) continue;
            if (q.stm == winner_ && in_check(c, at_) && count_moves(c, at_) == 0) {
                build_line(node, m);
                return ClosureResult::Mate;
            }
            if (lacks_mating_material(c, winner_)) continue;
            // Captures and pawn moves change what can ever move; other moves
            // keep every piece inside the regions the parent's analysis saw.
            const bool irreversible = m.is_capture() || (q.pawns & square_bb(m.from()));
            if (irreversible && (m.is_capture() || worth_analysing()) &&
                !ReachAnalysis(c, at_).mate_possible(winner_)) {
                analysis_hits_ += !m.is_capture();
                continue;
            }
            // The cost of a move is not waived after a rewarded one here (as it
            // is in the helpmate search): the walk meets more mates sooner.
            const int cost = progress_cost(classify(q, m, winner_, targets), false);
            frontier_[(cost_ + cost) % RING].nodes.push_back(uint32_t(nodes_.size()));
            ++waiting_;
            nodes_.push_back({pack(c), node, m});
        }
    }
    return waiting_ ? ClosureResult::OutOfBudget : ClosureResult::Exhausted;
}

}  // namespace perftide::analysis
