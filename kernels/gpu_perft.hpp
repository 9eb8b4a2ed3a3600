// The GPU backend's plain C++ face: no CUDA types, so host/ code compiled by
// g++ calls it whether or not the CUDA backend was built.
#pragma once

#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"

namespace gperft::gpu {

struct Status {
    bool available = false;
    std::string message;  // the device's name, or why there is none
};

// Whether a CUDA device can run the backend here. Cheap after the first call.
Status status();

// perft(depth) of every root, depth >= 0. Throws std::runtime_error when no
// device is usable or a CUDA call fails; never returns a partial count.
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth);

}  // namespace gperft::gpu
