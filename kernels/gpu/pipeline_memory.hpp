// The memory a breadth-first run holds, its working arena and its
// transposition tables, kept by one set of rules on the device and on the
// host pipeline, so that tests on the host check the device's bookkeeping:
// what is allocated for a request, that it is kept between calls, and that
// it goes back when a run ends or the owner does, also on an exception.
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

#include "gpu/device_memory.hpp"
#include "gpu/gpu_perft.hpp"
#include "gpu/perft_tables.hpp"

namespace perftide::gpu {

// A call's memory request: the arena exactly as asked (Options::arena_bytes)
// or as planned (arena_plan.hpp), the tables as asked, within the cap.
struct MemoryRequest {
    std::size_t arena_request = 0;  // bytes, exactly; 0: the planned arena_want
    std::size_t arena_want = 0;     // the arena plan's arena_bytes
    long long table_request = 0;    // Options::table_bytes: 0, bytes, or AUTO_TABLES
    DeviceMemoryCap cap;
    uint64_t seed = 0;
    bool rows = false;  // the tables hold statistics rows (level_stats.hpp), not counts
};

// The memory is kept between calls (the owner allocates only when a call
// needs more, or other tables, or under another cap), and goes back: an
// arena above kept_arena_bytes() when its call ends without tables, all of
// it on release() (a run's end, or a caller's trim) and with the owner.
template <class Allocator>
class PipelineMemory {
   public:
    explicit PipelineMemory(Allocator a = {}) : alloc_(std::move(a)) {}
    ~PipelineMemory() { release(); }
    PipelineMemory(const PipelineMemory&) = delete;
    PipelineMemory& operator=(const PipelineMemory&) = delete;

    // Makes the memory fit request r: kept as it is when it serves r (the
    // same tables and cap, an arena planned for at least r's want or of
    // r's exact size); else the arena (and, for other tables or another
    // cap, the tables) planned again (device_memory.hpp) from query(), a
    // callable returning the device's DeviceFree, asked only then. Tables
    // kept under another seed are zeroed (their entries were keyed with
    // other keys), and so are tables of the other kind (counts or rows: a
    // slot of one read as the other would be garbage). Returns true when
    // the caller must make the keys of r.seed.
    // Throws MemoryUnavailable, or the plan's refusal, holding nothing.
    template <class Query>
    bool prepare(const MemoryRequest& r, Query&& query) {
        if (!(r.table_request == table_request_ && r.cap == cap_)) release();
        if (!(arena_ && serves(r))) plan_again(r, query());
        const bool new_keys = !keyed_ || r.seed != seed_;
        if (tables_ && keyed_ && (r.seed != seed_ || r.rows != rows_)) alloc_.zero(tables_, table_bytes_);
        keyed_ = true, seed_ = r.seed, rows_ = r.rows;
        return new_keys;
    }

    // Tables of plan.table_bytes (rounded down to whole entries, zeroed) and
    // an arena of plan.arena_bytes, retried a quarter smaller while above
    // min_arena when the allocator has not that much (another process may
    // take memory between the plan and the allocation). Holds nothing when
    // it throws.
    void allocate(const DeviceMemoryPlan& plan, std::size_t min_arena) {
        release();
        try {
            allocate_tables(plan.table_bytes);
            allocate_arena(plan.arena_bytes, min_arena);
        } catch (...) {
            release();
            throw;
        }
    }

    // A call's end: an arena above the kept size goes back now, unless
    // tables keep it for the run's next call.
    void end_call() noexcept {
        if (!tables_ && arena_bytes_ > keep_bytes_) release();
    }

    void release() noexcept {
        release_arena();
        if (tables_) alloc_.deallocate(tables_, table_bytes_);
        tables_ = nullptr;
        table_bytes_ = 0;
        table_request_ = 0, cap_ = {}, seed_ = 0, keyed_ = false, rows_ = false;
    }

    void* arena() const { return arena_; }
    std::size_t arena_bytes() const { return arena_bytes_; }
    void* tables() const { return tables_; }
    std::size_t table_bytes() const { return table_bytes_; }
    std::size_t bytes_held() const { return arena_bytes_ + table_bytes_; }
    Allocator& allocator() { return alloc_; }

   private:
    bool serves(const MemoryRequest& r) const {
        return r.arena_request ? arena_request_ == r.arena_request : arena_request_ == 0 && r.arena_want <= arena_want_;
    }

    // The arena planned again for r (tables kept, or planned too when none
    // are held); what this owner holds counts as free, since it is reused.
    void plan_again(const MemoryRequest& r, DeviceFree d) {
        try {
            d.free += bytes_held();
            const long long tables = tables_ ? (long long)table_bytes_ : r.table_request;
            const DeviceMemoryPlan p =
                plan_device_memory(d, r.cap, tables, r.arena_request, r.arena_want, AUTO_TABLE_SHARE);
            release_arena();
            if (!tables_) allocate_tables(p.table_bytes);
            allocate_arena(p.arena_bytes, r.arena_request ? r.arena_request : MIN_ARENA_BYTES);
        } catch (...) {
            release();
            throw;
        }
        arena_request_ = r.arena_request, arena_want_ = r.arena_want;
        table_request_ = r.table_request, cap_ = r.cap;
        keep_bytes_ = kept_arena_bytes(d.total);
    }

    static std::string mib_up(std::size_t b) { return std::to_string((b + DEVICE_MIB - 1) / DEVICE_MIB) + " MiB"; }

    void allocate_tables(std::size_t bytes) {
        const std::size_t table_bytes = bytes / sizeof(TableEntry) * sizeof(TableEntry);
        if (!table_bytes) return;
        tables_ = alloc_.allocate(table_bytes);
        if (!tables_) throw MemoryUnavailable("out of memory for " + mib_up(table_bytes) + " of transposition tables");
        table_bytes_ = table_bytes;
        alloc_.zero(tables_, table_bytes);
    }

    void allocate_arena(std::size_t planned, std::size_t min_arena) {
        std::size_t bytes = planned;
        while (!(arena_ = bytes ? alloc_.allocate(bytes) : nullptr)) {
            if (bytes / 4 * 3 < min_arena || bytes == 0)
                throw MemoryUnavailable("out of memory for a working arena of " + mib_up(planned) +
                                        (bytes < planned ? " (nor of " + mib_up(bytes) + ")" : std::string()));
            bytes = bytes / 4 * 3;
        }
        arena_bytes_ = bytes;
    }

    void release_arena() noexcept {
        if (arena_) alloc_.deallocate(arena_, arena_bytes_);
        arena_ = nullptr;
        arena_bytes_ = 0, arena_request_ = 0, arena_want_ = 0;
    }

    Allocator alloc_;
    void* arena_ = nullptr;
    void* tables_ = nullptr;
    std::size_t arena_bytes_ = 0, table_bytes_ = 0;
    std::size_t arena_request_ = 0, arena_want_ = 0;
    std::size_t keep_bytes_ = MIN_ARENA_BYTES;
    long long table_request_ = 0;
    DeviceMemoryCap cap_;
    uint64_t seed_ = 0;
    bool keyed_ = false;  // the caller has made the keys of seed_
    bool rows_ = false;   // the tables hold rows
};

// Options::table_bytes is bytes, 0, or AUTO_TABLES; anything else is refused.
inline void check_table_request(const Options& o) {
    if (o.table_bytes < AUTO_TABLES)
        throw std::invalid_argument("table_bytes must be >= 0 or AUTO_TABLES, not " + std::to_string(o.table_bytes));
}

// The memory for a call of `o` (a statistics call when `rows`) whose arena plan wants arena_want bytes,
// within the cap in force (device_memory_cap()), the device's free memory
// asked of query() only when the memory must be planned again. Returns
// prepare's answer: whether the keys of o.zobrist_seed must be made.
template <class Allocator, class Query>
bool prepare_for(PipelineMemory<Allocator>& m, const Options& o, bool rows, std::size_t arena_want, Query&& query) {
    check_table_request(o);
    static_assert(AUTO_TABLES < 0, "plan_device_memory reads a negative table request as automatic");
    return m.prepare(MemoryRequest{o.arena_bytes, arena_want, o.table_bytes, device_memory_cap(), o.zobrist_seed, rows},
                     query);
}

}  // namespace perftide::gpu
