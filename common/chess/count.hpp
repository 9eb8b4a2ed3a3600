// Node counts. Deep perft totals pass 2^64 (perft(14) of the start position
// is about 6.2e19), so every total and merge uses 128-bit unsigned integers;
// g++ and nvcc both support unsigned __int128 on 64-bit targets.
#pragma once

#include "chess/config.hpp"

namespace chess {

using u128 = unsigned __int128;

}  // namespace chess
