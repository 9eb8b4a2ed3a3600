// Work units for deep perft: the root expanded to a split depth, identical
// positions (FIDE 9.2 identity, chess::canonical) merged into unique
// positions with multiplicities. perft(depth) = sum over units of
// perft(depth - split) x multiplicity; per root move likewise, through the
// shares, which is how --divide survives the merge.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"

namespace perftide {

// Deepest split accepted: multiplicities are 64-bit, and perft(10) of any
// position stays below 2^64 (218^10 does not, but no legal position comes
// close to 218 moves at every ply).
constexpr int MAX_SPLIT = 10;

// The paths from one root move to one unit.
struct UnitShare {
    uint32_t unit;
    uint32_t root_move;  // index into WorkUnits::root_moves
    uint64_t paths;
};

struct WorkUnits {
    int split = 0;
    std::vector<chess::Move> root_moves;        // generation order
    std::vector<chess::Position> positions;     // unique canonical positions, sorted
    std::vector<uint64_t> multiplicity;         // paths from the root to each unit
    std::vector<UnitShare> shares;              // sorted by unit, then root move
};

// Expands `root` split plies (1 <= split <= MAX_SPLIT), merging identical
// positions after every ply with a sort and reduce_by_key.
WorkUnits build_work_units(const chess::Position& root, int split);

// Sorts `positions` (an order on every field) and merges equal ones,
// summing their `paths`: both vectors shrink to the distinct positions.
// Sums are 64-bit (paths to one position at ply n are at most perft(n)).
void merge_positions(std::vector<chess::Position>& positions, std::vector<uint64_t>& paths);

// The total and per-root-move counts from every unit's count at the
// remaining depth; 128-bit and checked (throws CountOverflow).
struct UnitTotals {
    chess::u128 total = 0;
    std::vector<chess::u128> per_root_move;
};
UnitTotals merge_unit_counts(const WorkUnits& units, const std::vector<chess::u128>& unit_counts);

// A seed-independent 64-bit fingerprint of a unit's position, so a journal
// entry names the position it counted, not just its index.
uint64_t unit_fingerprint(const chess::Position& canon);

}  // namespace perftide
