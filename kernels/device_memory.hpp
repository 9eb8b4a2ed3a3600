// How much device memory a GPU run takes: a plain function of what is free
// and what was asked, so that it is tested on the host. A run takes what it
// needs up to a limit (--device-memory, GPERFT_DEVICE_MEMORY, or by default
// three quarters of the free memory less headroom for the CUDA context), not
// all free memory: other CUDA users of the same GPU (a second rank, a child
// process, the frontier after a perft) keep theirs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gperft::gpu {

constexpr std::size_t DEVICE_MIB = std::size_t(1) << 20;
constexpr std::size_t MIN_ARENA_BYTES = 64 * DEVICE_MIB;
constexpr double DEFAULT_DEVICE_SHARE = 0.75;

// The most device memory a GPU run (arena and tables together, or the
// frontier of gperft unique) may take, in bytes: what set_device_memory_limit
// was given (--device-memory), else GPERFT_DEVICE_MEMORY (MiB), else 0 (the
// default share of the free memory).
inline std::size_t& explicit_device_memory_limit() {
    static std::size_t bytes = 0;
    return bytes;
}
inline void set_device_memory_limit(std::size_t bytes) { explicit_device_memory_limit() = bytes; }
inline std::size_t device_memory_limit() {
    if (explicit_device_memory_limit()) return explicit_device_memory_limit();
    const char* v = std::getenv("GPERFT_DEVICE_MEMORY");
    return v && *v ? std::size_t(std::strtoull(v, nullptr, 10)) * DEVICE_MIB : std::size_t(0);
}

struct DeviceMemoryPlan {
    std::size_t table_bytes = 0;  // all transposition tables together
    std::size_t arena_bytes = 0;  // the working arena
};

// free/total: cudaMemGetInfo's; limit: the caller's cap in bytes (0: the
// default share); table_request: 0 none, < 0 automatic (table_share of the
// budget), else bytes; arena_request: bytes, 0 for the rest of the budget.
// Throws std::invalid_argument naming the numbers when the request does not
// fit the budget, or the budget not the free memory.
inline DeviceMemoryPlan plan_device_memory(std::size_t free, std::size_t total, std::size_t limit,
                                           long long table_request, std::size_t arena_request, double table_share) {
    const std::size_t headroom = std::max<std::size_t>(total / 32, 512 * DEVICE_MIB);
    const std::size_t usable = free > headroom ? free - headroom : 0;
    const std::size_t budget = limit ? limit : std::size_t(double(usable) * DEFAULT_DEVICE_SHARE);
    const auto mib = [](std::size_t b) { return std::to_string(b / DEVICE_MIB) + " MiB"; };
    if (budget > usable)
        throw std::invalid_argument("device memory of " + mib(budget) + " asked for, but only " + mib(usable) +
                                    " of the GPU's memory is free");
    const std::size_t arena_need = arena_request ? arena_request : MIN_ARENA_BYTES;
    DeviceMemoryPlan p;
    if (table_request < 0)
        p.table_bytes = budget > arena_need ? std::min(std::size_t(double(budget) * table_share), budget - arena_need) : 0;
    else
        p.table_bytes = std::size_t(table_request);
    if (p.table_bytes + arena_need > budget)
        throw std::invalid_argument("device tables of " + mib(p.table_bytes) + " and an arena of " + mib(arena_need) +
                                    " do not fit the " + mib(budget) + " of device memory this run may take" +
                                    (limit ? " (--device-memory)" : ""));
    p.arena_bytes = arena_request ? arena_request : budget - p.table_bytes;
    return p;
}

}  // namespace gperft::gpu
