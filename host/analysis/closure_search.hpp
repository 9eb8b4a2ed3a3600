// Exhaustive breadth-first search of every position reachable from a root
// (FIDE 9.2 identity: move counters ignored, en passant only when playable).
// Branches end where the winner's material or the static reach analysis
// proves no mate can follow. If the whole reachable set is walked without
// meeting a mate by the winner, no mate exists: the sound route to No in
// blocked positions. A mate met on the way is returned as a shortest line.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/zobrist.hpp"
#include "zeroed_pages.hpp"

namespace gperft::analysis {

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
    struct Node {
        chess::Position pos;
        uint32_t parent;
        chess::Move move;
    };

    bool insert(chess::Key128 key);  // false when already seen
    void clear_seen(uint64_t expected);
    void build_line(uint32_t node, chess::Move last);
    bool worth_analysing();

    chess::Attacks at_;
    chess::Zobrist zobrist_;
    chess::Color winner_ = chess::WHITE;
    // Kept at its largest between questions: freeing and faulting in again
    // tens of MB per question cost more kernel time than the search saved.
    std::vector<Node> nodes_;
    size_t head_ = 0;  // next position to expand
    ZeroedPages<chess::Key128> seen_;  // open addressing; {0, 0} marks a free slot
    size_t seen_count_ = 0;
    std::vector<chess::Move> line_;
    uint64_t analysis_calls_ = 0, analysis_hits_ = 0;
};

}  // namespace gperft::analysis
