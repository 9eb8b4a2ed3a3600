#include "host_pipeline.hpp"

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "host_exec.hpp"
#include "level_pipeline.hpp"

namespace gperft::gpu::host {

namespace {

HostExec make_exec(const Options& options) {
    constexpr std::size_t DEFAULT_ARENA = std::size_t(256) << 20;
    check_table_request(options);
    const long long tables = options.table_bytes == AUTO_TABLES ? HOST_AUTO_TABLE_BYTES : options.table_bytes;
    return HostExec(options.arena_bytes ? options.arena_bytes : DEFAULT_ARENA, std::size_t(tables), options.zobrist_seed);
}

}  // namespace

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    HostExec exec = make_exec(options);
    Stats local;
    return perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
}

std::vector<StatsRow> perft_stats(const chess::Position& root, int depth, const Options& options, Stats* stats) {
    HostExec exec = make_exec(options);
    Stats local;
    return perft_stats_with(exec, root, depth, options, stats ? *stats : local);
}

// The stand-in keeps one PipelineMemory for the process, as a device does,
// planned for a pretend device of STAND_IN_BYTES and the limit in force.
namespace stand_in {
namespace {

struct Memory {
    std::mutex mutex;
    PipelineMemory<HostAllocator> memory;
};
Memory& memory() {
    static Memory m;
    return m;
}

// GPERFT_HOST_GPU_FAULT: the device fault the stand-in plants in every call.
std::string planted_fault() {
    static const std::string fault = [] {
        const char* v = std::getenv("GPERFT_HOST_GPU_FAULT");
        const std::string f = v ? v : "";
        if (!f.empty() && f != "generation" && f != "arena" && f != "allocation")
            throw std::invalid_argument("GPERFT_HOST_GPU_FAULT=" + f + ": give generation, arena or allocation");
        return f;
    }();
    return fault;
}
constexpr std::size_t PLANTED_ARENA_BYTES = 1024;

// Runs f(exec) over the stand-in's memory configured for `o`, one caller at
// a time; a call without tables gives the memory back as it ends.
template <class F>
auto run(const Options& o, F&& f) {
    Memory& m = memory();
    std::lock_guard<std::mutex> lock(m.mutex);
    struct EndCall {
        PipelineMemory<HostAllocator>& m;
        ~EndCall() { m.end_call(); }
    } end_call{m.memory};
    const std::string fault = planted_fault();
    m.memory.allocator().refuse = fault == "allocation";
    prepare_for(m.memory, o, [] { return std::pair{STAND_IN_BYTES, STAND_IN_BYTES}; });
    HostExec exec(m.memory, o.zobrist_seed);
    if (fault == "generation") exec.plant_generation_fault();
    if (fault == "arena") exec.arena() = StackArena(m.memory.arena(), PLANTED_ARENA_BYTES);
    return f(exec);
}

}  // namespace

bool active() {
    static const bool on = [] {
        const char* v = std::getenv("GPERFT_HOST_GPU");
        return v && *v && std::string(v) != "0";
    }();
    return on;
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    Stats local;
    return run(options, [&](HostExec& exec) { return perft_batch_with(exec, roots, depth, options, stats ? *stats : local); });
}

std::vector<StatsRow> perft_stats(const chess::Position& root, int depth, const Options& options, Stats* stats) {
    Stats local;
    return run(options, [&](HostExec& exec) { return perft_stats_with(exec, root, depth, options, stats ? *stats : local); });
}

void release_memory() {
    Memory& m = memory();
    std::lock_guard<std::mutex> lock(m.mutex);
    m.memory.release();
}

}  // namespace stand_in

}  // namespace gperft::gpu::host
