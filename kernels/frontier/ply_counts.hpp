// What one ply of distinct positions holds: its counts and classes
// (PlyCounts), the frontier itself (positions and multiplicities), and the
// counts as fixed-order numbers for sums over processes and journals.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"

namespace perftide::frontier {

// What one ply holds. Classes count distinct positions; *_paths weight
// each by its multiplicity (the number of move paths that reach it).
struct PlyCounts {
    int ply = 0;
    uint64_t distinct = 0;
    chess::u128 paths = 0;  // the sum of multiplicities: perft(ply)
    uint64_t in_check = 0, checkmates = 0, stalemates = 0;
    uint64_t insufficient = 0;  // dead by material (insufficient material), mates and stalemates apart
    chess::u128 check_paths = 0, checkmate_paths = 0, stalemate_paths = 0, insufficient_paths = 0;
    // Positions where an e.p. capture is legal, and where a castling right is kept.
    uint64_t en_passant = 0, castling = 0;
    int passes = 1;  // partitions the ply's children were split into
};

// Positions (canonical: FIDE 9.2 identity) and their multiplicities.
struct Frontier {
    std::vector<chess::Position> positions;
    std::vector<uint64_t> counts;
};

// A ply's counts as 128-bit numbers in a fixed order (ply and passes
// apart), and back: for sums over processes and for journals. The names
// are the JSON keys of unique's rows, in the same order.
std::vector<chess::u128> count_fields(const PlyCounts& c);
const std::vector<const char*>& count_field_names();
PlyCounts from_fields(int ply, int passes, const std::vector<chess::u128>& fields);

}  // namespace perftide::frontier
