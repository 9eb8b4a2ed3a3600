// The GPU backend when gperft is built without CUDA.
#include <stdexcept>

#include "gpu_perft.hpp"

namespace gperft::gpu {

Status status() { return {false, "this gperft was built without CUDA (nvcc was not found at configure time)"}; }

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>&, int) { throw std::runtime_error(status().message); }

}  // namespace gperft::gpu
