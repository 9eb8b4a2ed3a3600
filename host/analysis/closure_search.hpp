// Exhaustive search of every position reachable from a root (FIDE 9.2
// identity: move counters ignored, en passant only when playable). Branches
// end where the winner's material or the static reach analysis proves no mate
// can follow. If the whole reachable set is walked without meeting a mate by
// the winner, no mate exists: the sound route to No in blocked positions.
// Positions are expanded cheapest first, a move costing about what it
// costs the helpmate search (progress_cost): the order decides how soon a
// mate is met, never which positions are walked, so an exhausted walk proves
// No in any order. A mate met on the way is returned with the line that
// reached it.
#pragma once

#include <cstdint>
#include <vector>

#include "base/zeroed_pages.hpp"
#include "chess/packed_position.hpp"
#include "chess/zobrist.hpp"

namespace perftide::analysis {

enum class ClosureResult { Mate, Exhausted, OutOfBudget };

class ClosureSearch {
   public:
    ClosureSearch();

    // Walks about node_limit positions at most.
    ClosureResult run(const chess::Position& root, chess::Color winner, uint64_t node_limit);
    // Carries on after OutOfBudget, up to a larger node_limit.
    ClosureResult resume(uint64_t node_limit);

    const std::vector<chess::Move>& line() const { return line_; }
    uint64_t nodes() const { return nodes_.size(); }

   private:
    struct Node {  // 32 bytes
        chess::PackedPosition pos;  // canonical
        uint32_t parent;
        chess::Move move;
    };

    // Positions waiting to be expanded, by cost: a ring of buckets, the
    // current one at cost_ % RING; a move costs at most RING - 1.
    static constexpr int RING = 8;
    struct Bucket {
        std::vector<uint32_t> nodes;
        size_t next = 0;
    };
    bool next_node(uint32_t& node);

    bool insert(chess::Key128 key);  // false when already seen
    void grow_seen();
    void clear_seen(uint64_t expected);
    void build_line(uint32_t node, chess::Move last);
    bool worth_analysing();

    chess::Attacks at_;
    chess::Zobrist zobrist_;
    chess::Color winner_ = chess::WHITE;
    bool chess960_ = false;
    // Kept at its largest between questions: freeing and faulting in again
    // tens of MB per question cost more kernel time than the search saved.
    std::vector<Node> nodes_;
    Bucket frontier_[RING];
    uint32_t cost_ = 0;
    size_t waiting_ = 0;  // positions in the buckets
    // The seen-set: open addressing over the first slots_ entries of seen_;
    // {0, 0} marks a free slot. It grows by rehashing into spare_, and the
    // two swap. Both stay mapped between questions (a table faulted in afresh
    // for every large question cost more kernel time than its search), and
    // only the slots a question uses are cleared.
    ZeroedPages<chess::Key128> seen_, spare_;
    size_t slots_ = 0, seen_count_ = 0;
    std::vector<chess::Move> line_;
    uint64_t analysis_calls_ = 0, analysis_hits_ = 0;
};

}  // namespace perftide::analysis
