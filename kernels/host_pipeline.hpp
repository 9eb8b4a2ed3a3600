// The GPU engine's breadth-first pipeline run on the host, from the same
// source as the kernels (level_pipeline.hpp over HostExec). It is slow and
// single-threaded on purpose: it exists so that machines without a GPU test
// the device algorithm, including chunking, staging and warp accumulation.
#pragma once

#include <vector>

#include "gpu_perft.hpp"

namespace gperft::gpu::host {

// Like gpu::perft_batch; options.arena_bytes == 0 means 256 MiB.
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options = {},
                                     Stats* stats = nullptr);

}  // namespace gperft::gpu::host
