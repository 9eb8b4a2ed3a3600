// The GPU backend's plain C++ face: no CUDA types, so host/ code compiled by
// g++ calls it whether or not the CUDA backend was built. The engine is a
// host-driven breadth-first search (see level_pipeline.hpp); the same pipeline
// also runs on the host (host_pipeline.hpp) so it can be tested without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
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

// Most plies one breadth-first run covers from its roots. Every per-position
// count on the device is a 64-bit integer, and perft(8) of any position is
// below 256^8 = 2^64; deeper requests are expanded on the host first.
constexpr int MAX_DEVICE_DEPTH = 8;

struct Options {
    // Bytes of the one working arena. 0: sized from free device memory (the
    // host pipeline then uses 256 MiB).
    std::size_t arena_bytes = 0;
    // Plies above this are expanded on the host before the breadth-first run
    // (1..MAX_DEVICE_DEPTH); tests lower it to exercise that path.
    int max_device_depth = MAX_DEVICE_DEPTH;
    // Scales the estimate of the memory an item's subtree needs, from which
    // chunks are sized. Below 1 the chunks are optimistic and the levels
    // below split them again (tests use it to exercise that path).
    double chunk_estimate_scale = 1.0;
};

// What a run did, for tests and benchmarks.
struct Stats {
    int host_plies = 0;              // plies expanded on the host before the device run
    std::uint64_t batches = 0;       // breadth-first runs (one per side to move and root slice)
    std::uint64_t make_launches = 0; // levels (or chunks of levels) made and counted
    std::uint64_t leaf_launches = 0; // fused leaf launches (chunks of the last level)
    std::uint64_t max_leaf_items = 0;
    std::uint64_t leaf_items = 0;    // (position, move) items counted by leaf launches
    std::uint64_t chunk_retries = 0; // chunks split again because the levels below outgrew the estimate
    std::size_t arena_bytes = 0;
    std::size_t peak_arena_bytes = 0;
};

// perft(depth) of every root, depth >= 0. Throws std::runtime_error when no
// device is usable, a CUDA call fails or memory runs out; never returns a
// partial count.
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth);
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats = nullptr);

}  // namespace gperft::gpu
