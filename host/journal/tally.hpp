// What a work unit's count is: its tally. For perft, one number (the unit's
// perft at the remaining depth); for perft --stats, the statistics rows of
// every ply below the unit, STAT_COUNT counts a ply, the last ply's last.
// Engines, the journal, the wire between ranks and the merge all carry
// tallies as flat arrays of 128-bit counts, `width` to a unit.
#pragma once

#include <cstddef>

#include "chess/stats.hpp"

namespace perftide {

constexpr size_t tally_width(bool stats, int remaining) {
    return stats ? size_t(chess::STAT_COUNT) * size_t(remaining > 0 ? remaining : 0) : 1;
}

// The unit's leaves: the count, or the nodes column of the last ply's row.
template <class T>
T tally_nodes(const T* tally, bool stats, int remaining) {
    if (!stats) return tally[0];
    return remaining > 0 ? tally[size_t(remaining - 1) * chess::STAT_COUNT + chess::STAT_NODES] : T(1);
}

}  // namespace perftide
