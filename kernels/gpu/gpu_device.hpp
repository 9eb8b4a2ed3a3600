// The CUDA device behind the GPU backend's face (gpu_perft.hpp):
// gpu_perft.cu, or no_gpu.cpp in a build without CUDA. gpu_backend.cpp
// chooses between it and the host pipeline standing in for it.
#pragma once

#include "gpu/gpu_perft.hpp"

namespace perftide::gpu::device {

Status status();
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats);
std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                  Stats* stats);
void release_device_memory();
chess::Attacks device_attacks();

}  // namespace perftide::gpu::device
