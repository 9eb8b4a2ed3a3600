// The GPU engine's breadth-first pipeline run on the host, from the same
// source as the kernels (level_pipeline.hpp over HostExec). It is slow and
// single-threaded on purpose: it exists so that machines without a GPU test
// the device algorithm, including chunking, staging, warp accumulation, the
// transposition tables, duplicate removal and the statistics leaf.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpu/gpu_perft.hpp"

namespace perftide::gpu::host {

// Like gpu::perft_batch; options.arena_bytes == 0 means the arena plan's
// size (arena_plan.hpp) within 256 MiB, and options.table_bytes == AUTO_TABLES means
// HOST_AUTO_TABLE_BYTES. The memory lives for one call (the stand-in below
// keeps its own between calls, as a device does).
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options = {},
                                     Stats* stats = nullptr);

// Like gpu::perft_stats.
std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options = {},
                                  Stats* stats = nullptr);

// The host pipeline standing in for a CUDA device as the GPU backend, when
// PERFTIDE_HOST_GPU is set (to anything but 0): every GPU path of perftide, the
// command line included, then runs on machines without a GPU, slowly. Its
// memory follows the device's rules (pipeline_memory.hpp), planned for a
// pretend device of 1 GiB. PERFTIDE_HOST_GPU_FAULT plants a device fault in
// every call, for the tests of what a user then sees: `generation` (a
// parent's moves disagree with their count), `arena` (1 KiB of working
// memory) or `allocation` (the device has no memory to give).
namespace stand_in {
constexpr std::size_t STAND_IN_BYTES = std::size_t(1) << 30;  // the pretend device's memory, all free
constexpr int STAND_IN_DEVICES = 1;
constexpr std::size_t PLANTED_ARENA_BYTES = 1024;
bool active();
// PERFTIDE_HOST_GPU_FAULT's kind; any other value is refused
// (std::invalid_argument naming it).
enum class Fault { None, Generation, Arena, Allocation };
Fault planted_fault();
// For the GPU calls that do not run the level pipeline (the frontier of
// unique, the move counts of analyze): throws the planted fault as the
// device would report it, naming `call`; nothing without one.
void raise_planted_fault(const std::string& call);
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats);
std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                  Stats* stats);
void release_memory();
}  // namespace stand_in

}  // namespace perftide::gpu::host
