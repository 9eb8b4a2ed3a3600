// The breadth-first pipeline's executor on the host: each launch is a loop
// that models the device's grouping, so the host runs the device's algorithm
// and not merely its result. accumulate works in warps of 32 with the same
// segmented-sum steps the device's shuffles perform; generate works in blocks
// that stage their moves and copy them out in order, as shared memory does;
// the key sort is stable, as CUB's radix sort is. The Zobrist keys and the
// transposition tables live in host memory.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/level_keys.hpp"
#include "gpu/level_stats.hpp"
#include "gpu/level_work.hpp"
#include "gpu/perft_tables.hpp"
#include "gpu/pipeline_memory.hpp"
#include "gpu/stack_arena.hpp"

namespace perftide::gpu {

// The warp's segmented sum over 32 lanes in lock step; add(key, sum) is
// called once per run of equal keys (the device's one atomic per run).
template <class Add>
void warp_sums(const Contribution (&c)[WARP], Add&& add) {
    uint64_t sum[WARP], before[WARP];
    for (int l = 0; l < WARP; ++l) sum[l] = c[l].value;
    for (int d = 1; d < WARP; d *= 2) {
        std::copy(sum, sum + WARP, before);  // a shuffle reads the registers as they were before the step
        for (int l = 0; l < WARP; ++l) {
            const int below = l >= d ? l - d : l;  // __shfl_up_sync returns the lane's own value there
            sum[l] = segmented_step(l, d, c[l].key, before[l], c[below].key, before[below]);
        }
    }
    for (int l = 0; l < WARP; ++l) {
        const uint32_t key_above = c[l + 1 < WARP ? l + 1 : l].key;
        if (segment_tail(l, c[l].key, key_above) && sum[l]) add(c[l].key, sum[l]);
    }
}

// The host pipeline's stand-in for cudaMalloc: aligned host memory, every
// byte it holds counted in host_bytes_held() and every allocation in
// host_allocations(), so that tests see the memory of a run come back and
// calls that reuse kept memory allocate nothing.
inline std::atomic<std::size_t>& host_bytes_held() {
    static std::atomic<std::size_t> bytes{0};
    return bytes;
}
inline std::atomic<std::uint64_t>& host_allocations() {
    static std::atomic<std::uint64_t> count{0};
    return count;
}
struct HostAllocator {
    bool refuse = false;  // every allocation fails, as on a full device (a planted fault)
    void* allocate(std::size_t bytes) {
        if (refuse) return nullptr;
        void* p = ::operator new(bytes, std::align_val_t(StackArena::ALIGN), std::nothrow);
        if (p) host_bytes_held() += bytes, ++host_allocations();
        return p;
    }
    void deallocate(void* p, std::size_t bytes) noexcept {
        ::operator delete(p, std::align_val_t(StackArena::ALIGN));
        host_bytes_held() -= bytes;
    }
    void zero(void* p, std::size_t bytes) { std::memset(p, 0, bytes); }
};

class HostExec {
   public:
    // An arena of arena_bytes, tables of table_bytes (all depths; zeroed),
    // and the Zobrist keys of `seed`, held by the same PipelineMemory as the
    // device's and given back when the executor goes.
    explicit HostExec(std::size_t arena_bytes, std::size_t table_bytes = 0, uint64_t seed = chess::DEFAULT_ZOBRIST_SEED)
        : stage_moves_(STAGE_CAPACITY), stage_owner_(STAGE_CAPACITY), keys_(chess::build_zobrist_data(seed)) {
        memory_.allocate(DeviceMemoryPlan{table_bytes, arena_bytes}, arena_bytes);
        use(memory_);
    }
    // A view of memory held elsewhere (the stand-in's, kept between calls as
    // the device keeps its own), with the keys of `seed`.
    HostExec(const PipelineMemory<HostAllocator>& memory, uint64_t seed)
        : stage_moves_(STAGE_CAPACITY), stage_owner_(STAGE_CAPACITY), keys_(chess::build_zobrist_data(seed)) {
        use(memory);
    }

    StackArena& arena() { return arena_; }
    Attacks tables() const { return chess::host_attacks(); }
    Zobrist zobrist() const { return Zobrist{keys_.get()}; }
    TableMemory table_memory() const { return tables_; }
    std::size_t table_bytes() const { return tables_.bytes; }
    uint32_t* error_flag() { return &error_; }
    void check_error(const char* what) const {
        if (error_) throw std::runtime_error(std::string("host pipeline: ") + what);
    }

    template <class T>
    void upload(T* dst, const T* src, uint64_t n) {
        std::copy(src, src + n, dst);
    }
    template <class T>
    void download(T* dst, const T* src, uint64_t n) {
        std::copy(src, src + n, dst);
    }
    template <class T>
    T read(const T* p) {
        return *p;
    }
    template <class T>
    void clear(T* p, uint64_t n) {
        std::fill(p, p + n, T{});
    }

    template <class F>
    void for_each(uint64_t n, const F& f) {
        for (uint64_t i = 0; i < n; ++i) f(i);
    }

    template <class F>
    void accumulate(uint64_t n, const F& f, uint64_t* counters) {
        for (uint64_t w = 0; w < n; w += WARP) {
            Contribution c[WARP];
            for (int l = 0; l < WARP; ++l) c[l] = w + l < n ? f(w + l) : Contribution{NO_KEY, 0};
            warp_sums(c, [&](uint32_t key, uint64_t sum) { counters[key] += sum; });
        }
    }

    // From now on every generate() raises the error flag, as a GenerateMoves
    // that met fewer moves than counted does (a planted fault).
    void plant_generation_fault() { planted_generation_fault_ = true; }

    template <class G>
    void generate(const G& g) {
        if (planted_generation_fault_) *g.error = 1;
        const uint64_t blocks = (g.parents_n + GENERATE_BLOCK - 1) / GENERATE_BLOCK;
        for (uint64_t blk = 0; blk < blocks; ++blk) {
            const StageBlock b = stage_block(g, blk);
            for (int t = 0; t < GENERATE_BLOCK; ++t) stage_moves(g, b, t, stage_moves_.data(), stage_owner_.data());
            for (int t = 0; t < GENERATE_BLOCK; ++t) write_stage(g, b, t, stage_moves_.data(), stage_owner_.data());
        }
    }

    // out[i] = in[0] + ... + in[i - 1]; returns the sum of all n.
    uint64_t exclusive_scan(const uint32_t* in, uint64_t* out, uint64_t n) {
        uint64_t sum = 0;
        for (uint64_t i = 0; i < n; ++i) out[i] = sum, sum += in[i];
        return sum;
    }

    // data[i] = max(data[0], ..., data[i]), in place.
    void inclusive_max_scan(uint32_t* data, uint64_t n) {
        for (uint64_t i = 1; i < n; ++i) data[i] = MaxIndex{}(data[i - 1], data[i]);
    }

    // Stable sort of (keys, ids) by key into the _alt buffers, which then
    // become keys/ids (as CUB's double-buffered radix sort leaves them).
    void sort_pairs(SortBuffers& b, uint64_t n) {
        std::vector<uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return b.keys[x] < b.keys[y]; });
        for (uint64_t j = 0; j < n; ++j) b.keys_alt[j] = b.keys[order[j]], b.ids_alt[j] = b.ids[order[j]];
        std::swap(b.keys, b.keys_alt);
        std::swap(b.ids, b.ids_alt);
    }

    // Statistics of items [0, n): per-thread counters summed per block of
    // STATS_BLOCK threads, each block's sums added to counters[0, STAT_COUNT).
    // Statistics rows: f(i) gives item i's row and the row (key) it adds
    // into, rows[key * STAT_COUNT ...]; every column summed by warp_sums, as
    // the device's shuffles do.
    template <class F>
    void accumulate_rows(uint64_t n, const F& f, uint64_t* rows) {
        for (uint64_t w = 0; w < n; w += WARP) {
            RowContribution r[WARP];
            for (int l = 0; l < WARP; ++l) r[l] = w + l < n ? f(w + l) : RowContribution{NO_KEY, {}};
            for (int k = 0; k < chess::STAT_COUNT; ++k) {
                Contribution c[WARP];
                for (int l = 0; l < WARP; ++l) c[l] = {r[l].key, r[l].row.c[k]};
                warp_sums(c, [&](uint32_t key, uint64_t sum) { rows[uint64_t(key) * chess::STAT_COUNT + k] += sum; });
            }
        }
    }

   private:
    // The arena and the tables of `m`.
    void use(const PipelineMemory<HostAllocator>& m) {
        arena_ = StackArena(m.arena(), m.arena_bytes());
        tables_ = TableMemory{m.tables(), m.table_bytes()};
    }

    PipelineMemory<HostAllocator> memory_;  // empty in a view
    StackArena arena_;
    std::vector<uint16_t> stage_moves_;
    std::vector<uint8_t> stage_owner_;
    uint32_t error_ = 0;
    std::unique_ptr<chess::ZobristData> keys_;
    TableMemory tables_;
    bool planted_generation_fault_ = false;
};

}  // namespace perftide::gpu
