// How much device memory a GPU call may take, and every refusal worded in
// one place for perft, statistics, unique, analyze and the host stand-in: a
// plain function of what is free and what was asked, so that it is tested
// on the host. The cap is --device-memory, else PERFTIDE_DEVICE_MEMORY, else
// three quarters of the free memory less headroom for the CUDA context.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"

namespace perftide::gpu {

constexpr std::size_t DEVICE_MIB = std::size_t(1) << 20;
constexpr std::size_t MIN_ARENA_BYTES = 64 * DEVICE_MIB;
constexpr double DEFAULT_DEVICE_SHARE = 0.75;
// The range of --device-memory and PERFTIDE_DEVICE_MEMORY, in MiB.
constexpr uint64_t MIN_DEVICE_MEMORY_MIB = 64;
constexpr uint64_t MAX_DEVICE_MEMORY_MIB = uint64_t(1) << 24;

inline std::string mib_text(std::size_t bytes) { return std::to_string(bytes / DEVICE_MIB) + " MiB"; }

// Where the cap on a call's device memory comes from.
enum class CapSource { Default, Flag, Environment };

struct DeviceMemoryCap {
    std::size_t bytes = 0;  // 0 with CapSource::Default: the default share of the free memory
    CapSource source = CapSource::Default;
    bool operator==(const DeviceMemoryCap&) const = default;
    // The cap's source in a message: "--device-memory 2000",
    // "PERFTIDE_DEVICE_MEMORY=2000", or the default share.
    std::string source_text() const {
        const std::string n = std::to_string(bytes / DEVICE_MIB);
        if (source == CapSource::Flag) return named(Setting::DeviceMemory, n);
        if (source == CapSource::Environment) return "PERFTIDE_DEVICE_MEMORY=" + n;
        return "three quarters of the free memory";
    }
};

// PERFTIDE_DEVICE_MEMORY's value in bytes: whole MiB, MIN..MAX_DEVICE_MEMORY_MIB;
// anything else (a sign, junk, zero, too small or too large) is refused naming the
// variable and the value.
inline std::size_t parse_device_memory_env(const std::string& v) {
    const bool digits = !v.empty() && v.size() <= 9 && v.find_first_not_of("0123456789") == std::string::npos;
    const uint64_t mib = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
    if (!digits || mib < MIN_DEVICE_MEMORY_MIB || mib > MAX_DEVICE_MEMORY_MIB)
        throw std::invalid_argument(
            "PERFTIDE_DEVICE_MEMORY='" + v + "' is not a device memory cap: give whole MiB from " +
            std::to_string(MIN_DEVICE_MEMORY_MIB) + " to " + std::to_string(MAX_DEVICE_MEMORY_MIB));
    return std::size_t(mib) * DEVICE_MIB;
}

// What set_device_memory_limit was given (--device-memory), in bytes; 0: none.
inline std::size_t& explicit_device_memory_limit() {
    static std::size_t bytes = 0;
    return bytes;
}
inline void set_device_memory_limit(std::size_t bytes) { explicit_device_memory_limit() = bytes; }

// The cap in force: --device-memory, else PERFTIDE_DEVICE_MEMORY (checked even
// when the flag overrides it, so that a typo never passes), else the default.
inline DeviceMemoryCap device_memory_cap() {
    const char* v = std::getenv("PERFTIDE_DEVICE_MEMORY");
    if (v && !*v) v = nullptr;  // set to nothing: as unset
    const std::size_t env = v ? parse_device_memory_env(v) : 0;
    if (explicit_device_memory_limit()) return {explicit_device_memory_limit(), CapSource::Flag};
    if (v) return {env, CapSource::Environment};
    return {};
}

// The device's memory as a call sees it: free counts what this process's
// owner holds and may reuse; usable is free less the CUDA context's headroom.
struct DeviceFree {
    std::size_t free = 0, total = 0;
    std::size_t headroom() const { return std::max<std::size_t>(total / 32, 512 * DEVICE_MIB); }
    std::size_t usable() const { return free > headroom() ? free - headroom() : 0; }
};

// The one wording of a refused cap: what was asked, by what, and what the
// device can give, with how that follows from its free memory.
[[noreturn]] inline void refuse_device_memory(const std::string& what, std::size_t asked, const std::string& source,
                                              std::size_t allowed, const std::string& how) {
    throw InputError(what + " of " + mib_text(asked) + " (" + source +
                     ") is more than the device can give: " + mib_text(allowed) + ", " + how);
}

// A perft or statistics call's budget (arena and tables together).
inline std::size_t device_budget(const DeviceFree& d, const DeviceMemoryCap& cap) {
    const std::size_t usable = d.usable();
    const std::size_t budget = cap.bytes ? cap.bytes : std::size_t(double(usable) * DEFAULT_DEVICE_SHARE);
    if (budget > usable)
        refuse_device_memory(
            "GPU memory", budget, cap.source_text(), usable,
            "the " + mib_text(d.free) + " free less " + mib_text(d.headroom()) + " kept for the CUDA context");
    return budget;
}

// The frontier's working budget (perftide unique): --memory (memory_bytes),
// else the cap, else half the free memory; the frontiers themselves come on
// top, so more than half the free memory is refused before the first ply.
inline std::size_t frontier_budget(const DeviceFree& d, const DeviceMemoryCap& cap, std::size_t memory_bytes) {
    const std::size_t half = d.free / 2;
    const std::size_t budget = memory_bytes ? memory_bytes : cap.bytes ? cap.bytes : half;
    const std::string source =
        memory_bytes ? named(Setting::Memory, std::to_string(memory_bytes / DEVICE_MIB)) : cap.source_text();
    if (budget > half)
        refuse_device_memory("a GPU frontier budget", budget, source, half,
                             "half of the " + mib_text(d.free) + " free (the frontiers come on top)");
    return budget;
}

struct DeviceMemoryPlan {
    std::size_t table_bytes = 0;  // all transposition tables together
    std::size_t arena_bytes = 0;  // the working arena
};

// table_request: 0 none, < 0 automatic (table_share of the budget), else
// bytes; arena_request: bytes, exactly; else arena_want (the arena plan's,
// arena_plan.hpp), within what the budget leaves beside the tables, at least
// MIN_ARENA_BYTES. Throws InputError naming the numbers and the
// cap's source when the request does not fit.
inline DeviceMemoryPlan plan_device_memory(const DeviceFree& d, const DeviceMemoryCap& cap, long long table_request,
                                           std::size_t arena_request, std::size_t arena_want, double table_share) {
    const std::size_t budget = device_budget(d, cap);
    const std::size_t arena_need = arena_request ? arena_request : MIN_ARENA_BYTES;
    DeviceMemoryPlan p;
    if (table_request < 0)
        p.table_bytes =
            budget > arena_need ? std::min(std::size_t(double(budget) * table_share), budget - arena_need) : 0;
    else
        p.table_bytes = std::size_t(table_request);
    if (p.table_bytes + arena_need > budget)
        throw InputError("device tables of " + mib_text(p.table_bytes) + " and an arena of " + mib_text(arena_need) +
                         " do not fit the " + mib_text(budget) + " of device memory this run may take (" +
                         cap.source_text() + ")");
    p.arena_bytes = arena_request ? arena_request : std::clamp(arena_want, MIN_ARENA_BYTES, budget - p.table_bytes);
    return p;
}

// What the owner keeps of a call's arena when the call ends without tables:
// at most this much (an arena bigger is given back at once, so a deep or
// large call never leaves other CUDA users short); tables and everything
// else go back at a run's end (release) and when the owner ends.
inline std::size_t kept_arena_bytes(std::size_t total) { return std::max(MIN_ARENA_BYTES, total / 16); }

}  // namespace perftide::gpu
