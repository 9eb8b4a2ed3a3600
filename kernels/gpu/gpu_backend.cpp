// The GPU backend's face (gpu_perft.hpp): the CUDA device (gpu_device.hpp),
// or the host pipeline standing in for it (PERFTIDE_HOST_GPU).
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "base/settings.hpp"
#include "gpu/gpu_device.hpp"
#include "gpu/host_pipeline.hpp"

namespace perftide::gpu {

Status status() {
    if (host::stand_in::active()) return {true, "the host pipeline standing in for a GPU (PERFTIDE_HOST_GPU)"};
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

std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                  Stats* stats) {
    if (host::stand_in::active()) return host::stand_in::perft_stats(roots, depth, options, stats);
    return device::perft_stats(roots, depth, options, stats);
}

void release_device_memory() {
    if (host::stand_in::active()) return host::stand_in::release_memory();
    device::release_device_memory();
}

// The NVIDIA driver lists one folder per GPU here; reading it starts no CUDA
// runtime, which must not see a device before CUDA_VISIBLE_DEVICES is set.
int gpus_present() {
    std::error_code e;
    int n = 0;
    for (std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", e), end; !e && it != end; it.increment(e))
        ++n;
    return n;
}

std::string choose_device(int n) {
    const std::string device = std::to_string(n);
    if (host::stand_in::active()) {
        if (n < host::stand_in::STAND_IN_DEVICES) return "";
        return device + ": the host pipeline standing in for a GPU (PERFTIDE_HOST_GPU) has 1 device: give " + named(Setting::Device, "0");
    }
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::vector<std::string> list;
        std::istringstream in(visible);
        for (std::string item; std::getline(in, item, ',');)
            if (!item.empty()) list.push_back(item);
        if (size_t(n) >= list.size())
            return device + ": CUDA_VISIBLE_DEVICES='" + visible + "' lists " + std::to_string(list.size()) +
                   " devices";
        setenv("CUDA_VISIBLE_DEVICES", list[size_t(n)].c_str(), 1);
        return "";
    }
    const int present = gpus_present();
    if (present > 0 && n >= present)
        return device + ": this machine has " + std::to_string(present) + " NVIDIA GPU" + (present > 1 ? "s" : "") +
               " (" + named(Setting::Device, "0") + (present > 1 ? " to " + std::to_string(present - 1) : std::string()) + ")";
    setenv("CUDA_VISIBLE_DEVICES", device.c_str(), 1);
    return "";
}

chess::Attacks device_attacks() {
    if (host::stand_in::active()) return chess::host_attacks();
    return device::device_attacks();
}

}  // namespace perftide::gpu
