// Mates that cannot exist for a given material, found by listing every
// candidate mating picture once. Used where the material cannot grow (no
// pawns on the board), so no later position can have them either.
#pragma once

#include "chess/movegen.hpp"

namespace perftide::analysis {

// True when `winner` has only a king and one knight, the board has no pawns,
// and the loser has only queens besides the king: no such position is mate.
bool lone_knight_against_queens(const chess::Position& p, chess::Color winner);

}  // namespace perftide::analysis
