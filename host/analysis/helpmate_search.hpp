// Heuristic helpmate search: iterative deepening over both sides' moves, the
// loser cooperating, with depth extensions for moves that make progress
// towards a mate (captures and pawn advances by the winner, kings and knights
// heading for a mating corner) and reductions for moves that rarely help.
// It only ever proves Yes (a line it found); giving up proves nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "base/zeroed_pages.hpp"
#include "chess/zobrist.hpp"

namespace perftide::analysis {

class HelpmateSearch {
   public:
    HelpmateSearch();

    // Deepens from depth 1 to max_depth, each iteration capped at a node
    // count growing with its depth, stopping after about node_limit nodes.
    // True when a helpmate was found; line() then holds it.
    bool run(const chess::Position& root, chess::Color winner, int max_depth, uint64_t node_limit);

    const std::vector<chess::Move>& line() const { return line_; }
    uint64_t nodes() const { return nodes_; }

   private:
    static constexpr int MAX_PLY = 160;

    struct TTEntry {
        uint64_t check = 0;
        int16_t depth = 0;
        uint16_t generation = 0;
    };

    bool search(const chess::Position& p, int depth, int ply, bool past_progress);

    chess::Attacks at_;
    chess::Zobrist zobrist_;
    chess::Color winner_ = chess::WHITE;
    uint64_t nodes_ = 0, limit_ = 0;
    bool aborted_ = false;
    uint16_t generation_ = 0;
    ZeroedPages<TTEntry> tt_;
    chess::Move stack_[MAX_PLY];
    std::vector<chess::Move> line_;
};

}  // namespace perftide::analysis
