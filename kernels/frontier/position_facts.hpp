// The analyzer's batch facts of single positions, counted by the frontier
// pipeline's Thrust source on the host or the GPU.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/position.hpp"

namespace perftide::frontier {

// The quick facts of single positions, for the analyzer's batch mode: the
// number of legal moves and whether the side to move is in check. Each
// position must be fit for move generation (parse_fen accepts it). The same
// Thrust source runs on the host and on the GPU; the GPU form throws
// std::runtime_error when no device is usable.
struct PositionFacts {
    uint16_t moves = 0;
    bool check = false;
};
std::vector<PositionFacts> position_facts_host(const std::vector<chess::Position>& positions);
std::vector<PositionFacts> position_facts_gpu(const std::vector<chess::Position>& positions);

}  // namespace perftide::frontier
