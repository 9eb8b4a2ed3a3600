// The GPU engine's breadth-first pipeline run on the host, from the same
// source as the kernels (level_pipeline.hpp over HostExec). It is slow and
// single-threaded on purpose: it exists so that machines without a GPU test
// the device algorithm, including chunking, staging, warp accumulation, the
// transposition tables, duplicate removal and the statistics leaf.
#pragma once

#include <vector>

#include "gpu_perft.hpp"

namespace gperft::gpu::host {

// Like gpu::perft_batch; options.arena_bytes == 0 means 256 MiB, and
// options.table_bytes == AUTO_TABLES means HOST_AUTO_TABLE_BYTES. The tables
// live for one call.
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options = {},
                                     Stats* stats = nullptr);

// Like gpu::perft_stats.
std::vector<StatsRow> perft_stats(const chess::Position& root, int depth, const Options& options = {},
                                  Stats* stats = nullptr);

}  // namespace gperft::gpu::host
