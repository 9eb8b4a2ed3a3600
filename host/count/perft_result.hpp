// What a perft run reports, whichever backend computed it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "chess/count.hpp"
#include "chess/types.hpp"

namespace gperft {

// The deepest perft any command counts (perft(30) of any position is far
// beyond any machine; the cap keeps a typo from running for ever).
constexpr int MAX_PERFT_DEPTH = 30;

struct PerftResult {
    chess::u128 nodes = 0;
    std::vector<std::pair<chess::Move, chess::u128>> divide;  // per root move, in generation order
    double seconds = 0;
    std::string backend;  // "cpu" or "gpu"
};

}  // namespace gperft
