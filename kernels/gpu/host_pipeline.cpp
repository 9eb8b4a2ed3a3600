#include "gpu/host_pipeline.hpp"

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/host_exec.hpp"
#include "gpu/level_pipeline.hpp"

namespace perftide::gpu::host {

namespace {

// A call's own executor: the arena as asked, else as the arena plan wants
// it within 256 MiB (a deep call chunks rather than take the host's memory),
// and tables that live for the call.
HostExec make_exec(const Options& options, ArenaInputs shape) {
    constexpr std::size_t HOST_ARENA_CAP = std::size_t(256) << 20;
    check_table_request(options);
    const long long tables = options.table_bytes == AUTO_TABLES ? HOST_AUTO_TABLE_BYTES : options.table_bytes;
    shape.cap = HOST_ARENA_CAP;
    return HostExec(options.arena_bytes ? options.arena_bytes : plan_arena(shape).arena_bytes, std::size_t(tables),
                    options.zobrist_seed);
}

}  // namespace

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    HostExec exec = make_exec(options, call_arena_inputs(roots, depth, options, false));
    Stats local;
    return perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
}

std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                  Stats* stats) {
    HostExec exec = make_exec(options, call_arena_inputs(roots, depth, options, true));
    Stats local;
    return perft_stats_with(exec, roots, depth, options, stats ? *stats : local);
}

// The stand-in keeps one PipelineMemory for the process, as a device's
// owner does, planned by the same arena plan for a pretend device of
// STAND_IN_BYTES and the cap in force.
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

// Runs f(exec) over the stand-in's memory configured for `o` and the call's
// arena plan (`shape`), one caller at a time; the memory is kept for the
// next call as the device keeps its own (pipeline_memory.hpp).
template <class F>
auto run(const Options& o, const ArenaInputs& shape, F&& f) {
    Memory& m = memory();
    std::lock_guard<std::mutex> lock(m.mutex);
    struct EndCall {
        PipelineMemory<HostAllocator>& m;
        ~EndCall() { m.end_call(); }
    } end_call{m.memory};
    const Fault fault = planted_fault();
    m.memory.allocator().refuse = fault == Fault::Allocation;
    prepare_for(m.memory, o, shape.stats, plan_arena(shape).arena_bytes, [] {
        return DeviceFree{STAND_IN_BYTES, STAND_IN_BYTES};
    });
    HostExec exec(m.memory, o.zobrist_seed);
    if (fault == Fault::Generation) exec.plant_generation_fault();
    if (fault == Fault::Arena) exec.arena() = StackArena(m.memory.arena(), PLANTED_ARENA_BYTES);
    return f(exec);
}

}  // namespace

// Read at every call, so that a bad value is refused by the first GPU call
// of any kind (perft, statistics, unique, analyze).
Fault planted_fault() {
    const char* v = std::getenv("PERFTIDE_HOST_GPU_FAULT");
    const std::string f = v ? v : "";
    if (f.empty()) return Fault::None;
    if (f == "generation") return Fault::Generation;
    if (f == "arena") return Fault::Arena;
    if (f == "allocation") return Fault::Allocation;
    throw std::invalid_argument("PERFTIDE_HOST_GPU_FAULT=" + f + ": give generation, arena or allocation");
}

void raise_planted_fault(const std::string& call) {
    switch (planted_fault()) {
        case Fault::None:
            return;
        case Fault::Generation:
            throw std::runtime_error("host pipeline: move generation disagreed with move counting in " + call);
        case Fault::Arena:
            throw ArenaExhausted("working memory exhausted: " + call + " needs more than its " +
                                 std::to_string(PLANTED_ARENA_BYTES) + " bytes");
        case Fault::Allocation:
            throw MemoryUnavailable("out of memory for " + call);
    }
}

bool active() {
    static const bool on = [] {
        const char* v = std::getenv("PERFTIDE_HOST_GPU");
        return v && *v && std::string(v) != "0";
    }();
    return on;
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    Stats local;
    return run(options, call_arena_inputs(roots, depth, options, false),
               [&](HostExec& exec) { return perft_batch_with(exec, roots, depth, options, stats ? *stats : local); });
}

std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                  Stats* stats) {
    Stats local;
    return run(options, call_arena_inputs(roots, depth, options, true),
               [&](HostExec& exec) { return perft_stats_with(exec, roots, depth, options, stats ? *stats : local); });
}

void release_memory() {
    Memory& m = memory();
    std::lock_guard<std::mutex> lock(m.mutex);
    m.memory.release();
}

}  // namespace stand_in

}  // namespace perftide::gpu::host
