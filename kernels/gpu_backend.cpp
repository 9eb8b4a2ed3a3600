// The GPU backend's face (gpu_perft.hpp): the CUDA device (gpu_device.hpp),
// or the host pipeline standing in for it (GPERFT_HOST_GPU).
#include "gpu_device.hpp"
#include "host_pipeline.hpp"

namespace gperft::gpu {

Status status() {
    if (host::stand_in::active()) return {true, "the host pipeline standing in for a GPU (GPERFT_HOST_GPU)"};
    return device::status();
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth) {
    return perft_batch(roots, depth, Options{});
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    if (host::stand_in::active()) return host::stand_in::perft_batch(roots, depth, options, stats);
    return device::perft_batch(roots, depth, options, stats);
}

std::vector<StatsRow> perft_stats(const chess::Position& root, int depth, const Options& options, Stats* stats) {
    if (host::stand_in::active()) return host::stand_in::perft_stats(root, depth, options, stats);
    return device::perft_stats(root, depth, options, stats);
}

void release_device_memory() {
    if (host::stand_in::active()) return host::stand_in::release_memory();
    device::release_device_memory();
}

chess::Attacks device_attacks() {
    if (host::stand_in::active()) return chess::host_attacks();
    return device::device_attacks();
}

}  // namespace gperft::gpu
