// The CUDA device when perftide is built without CUDA: there is none. The
// breadth-first pipeline itself still builds and runs on the host
// (host_pipeline.hpp), also as the GPU backend's stand-in (PERFTIDE_HOST_GPU).
#include <stdexcept>

#include "gpu/gpu_device.hpp"

namespace perftide::gpu::device {

Status status() { return {false, "this perftide was built without CUDA (nvcc was not found at configure time)"}; }

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>&, int, const Options&, Stats*) {
    throw std::runtime_error(status().message);
}

std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>&, int, const Options&, Stats*) {
    throw std::runtime_error(status().message);
}

chess::Attacks device_attacks() { throw std::runtime_error(status().message); }

void release_device_memory() {}

}  // namespace perftide::gpu::device
