// The GPU backend when gperft is built without CUDA. The breadth-first
// pipeline itself still builds and runs on the host (host_pipeline.hpp).
#include <stdexcept>

#include "gpu_perft.hpp"

namespace gperft::gpu {

Status status() { return {false, "this gperft was built without CUDA (nvcc was not found at configure time)"}; }

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>&, int) { throw std::runtime_error(status().message); }

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>&, int, const Options&, Stats*) {
    throw std::runtime_error(status().message);
}

std::vector<StatsRow> perft_stats(const chess::Position&, int, const Options&, Stats*) {
    throw std::runtime_error(status().message);
}

chess::Attacks device_attacks() { throw std::runtime_error(status().message); }

void release_device_memory() {}

}  // namespace gperft::gpu
