// Diagrams per ply: a diagram is a position without regard to the side to
// move, castling rights or en passant (the arrangement of the men alone), as
// OEIS A019319, A209433 and A209080 count them. Fed each ply's distinct
// positions with their move paths in turn (ply 0 first), a DiagramBook
// counts the ply's distinct diagrams, those reached at no earlier ply, and
// among those the ones reached by exactly one move path (the paths summed
// over the positions of the diagram): the dual-free shortest proof games of
// that length.
//
// It keeps every diagram of the plies seen, 24 bytes each, sorted: any
// earlier ply, of either parity, may hold a diagram again (1. e3 e5 2. e4 is
// the diagram of 1. e4 e5 a ply later), so none of them can be dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/packed_position.hpp"
#include "frontier/frontier.hpp"

namespace perftide::frontier {

struct DiagramCounts {
    int ply = 0;
    uint64_t diagrams = 0;  // distinct diagrams after `ply` plies (A019319)
    uint64_t first = 0;     // of them, reached at no earlier ply (A209433)
    uint64_t unique = 0;    // of those, reached by one move path (A209080)
};

// The diagram of a position: its men on their squares, packed.
chess::PackedPosition diagram_of(const chess::Position& p);

class DiagramBook {
   public:
    // Counts ply `ply` (the plies before it must have been added, in order),
    // then keeps its diagrams.
    DiagramCounts add(int ply, const Frontier& f);
    // The diagrams kept, 24 bytes each.
    size_t kept() const { return seen_.size(); }

   private:
    std::vector<chess::PackedPosition> seen_;  // sorted, each once
};

}  // namespace perftide::frontier
