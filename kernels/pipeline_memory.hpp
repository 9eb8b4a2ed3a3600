// The memory a breadth-first run holds, its working arena and its
// transposition tables, kept by one set of rules on the device and on the
// host pipeline, so that tests on the host check the device's bookkeeping:
// what is allocated for a request, when it is reused, and that it all goes
// back when a call or a run ends, also on an exception.
//
// The Allocator is the only part that differs (CUDA or host memory):
//   void* allocate(std::size_t bytes);   // nullptr when the memory is not there
//   void deallocate(void* p, std::size_t bytes) noexcept;
//   void zero(void* p, std::size_t bytes);
// Other failures (a broken device) are the allocator's to throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "device_memory.hpp"
#include "gpu_perft.hpp"
#include "perft_tables.hpp"

namespace gperft::gpu {

// The memory a plan asked for could not be had. Nothing is held afterwards.
struct MemoryUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class Allocator>
class PipelineMemory {
   public:
    explicit PipelineMemory(Allocator a = {}) : alloc_(std::move(a)) {}
    ~PipelineMemory() { release(); }
    PipelineMemory(const PipelineMemory&) = delete;
    PipelineMemory& operator=(const PipelineMemory&) = delete;

    // Makes the memory match a call's requests (Options::arena_bytes,
    // table_bytes and zobrist_seed, and the limit in force): kept as it is
    // when they are the ones of the memory held, else given back and
    // allocated again by plan(), a callable returning the DeviceMemoryPlan.
    // Tables kept under another seed are zeroed: their entries were keyed
    // with other keys. Returns true when the caller must make the keys of
    // `seed` (fresh memory or another seed). Throws MemoryUnavailable, or
    // what plan() throws, holding nothing.
    template <class Plan>
    bool prepare(std::size_t arena_request, long long table_request, std::size_t limit, uint64_t seed, Plan&& plan) {
        if (arena_ && arena_request == arena_request_ && table_request == table_request_ && limit == limit_) {
            if (seed == seed_) return false;
            if (tables_) alloc_.zero(tables_, table_bytes_);
            seed_ = seed;
            return true;
        }
        release();
        allocate(plan(), arena_request ? arena_request : MIN_ARENA_BYTES);
        arena_request_ = arena_request, table_request_ = table_request, limit_ = limit, seed_ = seed;
        return true;
    }

    // Tables of plan.table_bytes (rounded down to whole entries, zeroed) and
    // an arena of plan.arena_bytes, retried a quarter smaller while above
    // min_arena when the allocator has not that much (another process may
    // take memory between the plan and the allocation).
    void allocate(const DeviceMemoryPlan& plan, std::size_t min_arena) {
        release();
        const auto mib = [](std::size_t b) { return std::to_string((b + DEVICE_MIB - 1) / DEVICE_MIB) + " MiB"; };
        const std::size_t table_bytes = plan.table_bytes / sizeof(TableEntry) * sizeof(TableEntry);
        if (table_bytes) {
            tables_ = alloc_.allocate(table_bytes);
            if (!tables_) throw MemoryUnavailable("out of memory for " + mib(table_bytes) + " of transposition tables");
            table_bytes_ = table_bytes;
            try {
                alloc_.zero(tables_, table_bytes);
            } catch (...) {
                release();
                throw;
            }
        }
        std::size_t bytes = plan.arena_bytes;
        while (!(arena_ = bytes ? alloc_.allocate(bytes) : nullptr)) {
            if (bytes / 4 * 3 < min_arena || bytes == 0) {
                release();
                throw MemoryUnavailable("out of memory for a working arena of " + mib(plan.arena_bytes) +
                                        (bytes < plan.arena_bytes ? " (nor of " + mib(bytes) + ")" : std::string()));
            }
            bytes = bytes / 4 * 3;
        }
        arena_bytes_ = bytes;
    }

    // A call's end: memory without tables goes back now; tables (and their
    // arena) stay for the run's next call, until release().
    void end_call() noexcept {
        if (!tables_) release();
    }

    void release() noexcept {
        if (arena_) alloc_.deallocate(arena_, arena_bytes_);
        if (tables_) alloc_.deallocate(tables_, table_bytes_);
        arena_ = tables_ = nullptr;
        arena_bytes_ = table_bytes_ = 0;
        arena_request_ = 0, table_request_ = 0, limit_ = 0, seed_ = 0;
    }

    void* arena() const { return arena_; }
    std::size_t arena_bytes() const { return arena_bytes_; }
    void* tables() const { return tables_; }
    std::size_t table_bytes() const { return table_bytes_; }
    std::size_t bytes_held() const { return arena_bytes_ + table_bytes_; }
    Allocator& allocator() { return alloc_; }

   private:
    Allocator alloc_;
    void* arena_ = nullptr;
    void* tables_ = nullptr;
    std::size_t arena_bytes_ = 0, table_bytes_ = 0;
    std::size_t arena_request_ = 0, limit_ = 0;
    long long table_request_ = 0;
    uint64_t seed_ = 0;
};

// Options::table_bytes is bytes, 0, or AUTO_TABLES; anything else is refused.
inline void check_table_request(const Options& o) {
    if (o.table_bytes < AUTO_TABLES)
        throw std::invalid_argument("table_bytes must be >= 0 or AUTO_TABLES, not " + std::to_string(o.table_bytes));
}

// The memory for a call with `o`: o's requests planned (device_memory.hpp)
// within device_memory_limit() for the free and total bytes `query()`
// returns as a pair, asked only when the memory must be planned again.
// Returns prepare's answer: whether the keys of o.zobrist_seed must be made.
template <class Allocator, class Query>
bool prepare_for(PipelineMemory<Allocator>& m, const Options& o, Query&& query) {
    check_table_request(o);
    static_assert(AUTO_TABLES < 0, "plan_device_memory reads a negative table request as automatic");
    const std::size_t limit = device_memory_limit();
    return m.prepare(o.arena_bytes, o.table_bytes, limit, o.zobrist_seed, [&] {
        const auto [free, total] = query();
        return plan_device_memory(free, total, limit, o.table_bytes, o.arena_bytes, AUTO_TABLE_SHARE);
    });
}

}  // namespace gperft::gpu
