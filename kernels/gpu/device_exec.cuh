// The breadth-first pipeline's executor on a CUDA device: kernels that run
// the per-item work of level_work.hpp (and level_keys.hpp, level_stats.hpp),
// CUB's scans and radix sort, and copies for the few values the host driver
// reads, all on the stream of the run's device (gpu_perft.cu). GPU-only refinements live here: the warp shuffles behind
// accumulate and accumulate_rows and the shared-memory staging behind generate
// (host_exec.hpp models them step by step). Every call and launch is checked.
#pragma once

#include <cuda_runtime.h>

#include <cstdlib>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <stdexcept>
#include <string>

#include "gpu/level_keys.hpp"
#include "gpu/level_stats.hpp"
#include "gpu/level_work.hpp"
#include "gpu/perft_tables.hpp"
#include "gpu/stack_arena.hpp"

// Launch shape of the fused leaf kernel: with 384 threads and 3 blocks per SM
// the compiler keeps to 56 registers (75% occupancy); override to experiment.
#ifndef PERFTIDE_LEAF_BLOCK
#define PERFTIDE_LEAF_BLOCK 384
#endif
#ifndef PERFTIDE_LEAF_MIN_BLOCKS
#define PERFTIDE_LEAF_MIN_BLOCKS 3
#endif

namespace perftide::gpu {

inline void cuda_check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

// The functor a kernel runs, by name ("... [with F = perftide::gpu::MakeChildren<WHITE>]").
template <class F>
const char* kernel_name() {
    return __PRETTY_FUNCTION__;
}

// PERFTIDE_SYNC_LAUNCHES=1: wait for every kernel, so that an asynchronous
// fault is reported with the kernel that caused it rather than by the next
// copy (slower; for finding a fault).
inline bool sync_launches() {
    static const bool on = [] {
        const char* v = std::getenv("PERFTIDE_SYNC_LAUNCHES");
        return v && *v && std::string(v) != "0";
    }();
    return on;
}

// After a launch: the launch error, and with PERFTIDE_SYNC_LAUNCHES the
// kernel's own fault, both naming the kernel.
template <class F>
void check_launch(const char* kind) {
    const std::string what = std::string(kind) + " launch of " + kernel_name<F>();
    cuda_check(cudaGetLastError(), what.c_str());
    if (sync_launches()) cuda_check(cudaDeviceSynchronize(), (what + " (synchronised: PERFTIDE_SYNC_LAUNCHES)").c_str());
}

// The same for a CUB call.
inline void check_cub(cudaError_t e, const char* what) {
    cuda_check(e, what);
    if (sync_launches())
        cuda_check(cudaDeviceSynchronize(), (std::string(what) + " (synchronised: PERFTIDE_SYNC_LAUNCHES)").c_str());
}

template <class F>
struct LaunchShape {
    static constexpr int block = 256;
    static constexpr int min_blocks = 1;
};
template <Color Us, int Plies>
struct LaunchShape<LeafCount<Us, Plies>> {
    static constexpr int block = PERFTIDE_LEAF_BLOCK;
    static constexpr int min_blocks = PERFTIDE_LEAF_MIN_BLOCKS;
};

template <class F>
__global__ void __launch_bounds__(LaunchShape<F>::block, LaunchShape<F>::min_blocks) for_each_kernel(F f, uint64_t n) {
    const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) f(i);
}

// Every lane takes part in the shuffles, also those past n (key NO_KEY).
template <class F>
__global__ void __launch_bounds__(LaunchShape<F>::block, LaunchShape<F>::min_blocks)
    accumulate_kernel(F f, uint64_t n, unsigned long long* counters) {
    constexpr unsigned ALL_LANES = 0xFFFFFFFFu;
    const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const Contribution c = i < n ? f(i) : Contribution{NO_KEY, 0};
    const int lane = int(threadIdx.x) & (WARP - 1);
    unsigned long long sum = c.value;
    for (int d = 1; d < WARP; d *= 2) {
        const unsigned long long sum_below = __shfl_up_sync(ALL_LANES, sum, d);
        const uint32_t key_below = __shfl_up_sync(ALL_LANES, c.key, d);
        sum = segmented_step(lane, d, c.key, sum, key_below, sum_below);
    }
    const uint32_t key_above = __shfl_down_sync(ALL_LANES, c.key, 1);
    if (segment_tail(lane, c.key, key_above) && sum) atomicAdd(counters + c.key, sum);
}

// accumulate_kernel's segmented sums for a row of STAT_COUNT columns: the
// keys are shuffled once per step, each column's sum beside them; the last
// lane of each run adds its non-zero sums with one atomic each.
template <class F>
__global__ void __launch_bounds__(ROWS_BLOCK) accumulate_rows_kernel(F f, uint64_t n, unsigned long long* rows) {
    static_assert(ROWS_BLOCK % WARP == 0, "whole warps");
    constexpr unsigned ALL_LANES = 0xFFFFFFFFu;
    const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const RowContribution r = i < n ? f(i) : RowContribution{NO_KEY, {}};
    const int lane = int(threadIdx.x) & (WARP - 1);
    unsigned long long sum[chess::STAT_COUNT];
#pragma unroll
    for (int k = 0; k < chess::STAT_COUNT; ++k) sum[k] = r.row.c[k];
    for (int d = 1; d < WARP; d *= 2) {
        const uint32_t key_below = __shfl_up_sync(ALL_LANES, r.key, d);
#pragma unroll
        for (int k = 0; k < chess::STAT_COUNT; ++k) {
            const unsigned long long sum_below = __shfl_up_sync(ALL_LANES, sum[k], d);
            sum[k] = segmented_step(lane, d, r.key, sum[k], key_below, sum_below);
        }
    }
    const uint32_t key_above = __shfl_down_sync(ALL_LANES, r.key, 1);
    if (!segment_tail(lane, r.key, key_above)) return;
#pragma unroll
    for (int k = 0; k < chess::STAT_COUNT; ++k)
        if (sum[k]) atomicAdd(rows + uint64_t(r.key) * chess::STAT_COUNT + k, sum[k]);
}

template <class G>
__global__ void __launch_bounds__(GENERATE_BLOCK) generate_kernel(G g) {
    __shared__ uint16_t s_moves[STAGE_CAPACITY];
    __shared__ uint8_t s_owner[STAGE_CAPACITY];
    const StageBlock b = stage_block(g, blockIdx.x);
    stage_moves(g, b, int(threadIdx.x), s_moves, s_owner);
    __syncthreads();
    write_stage(g, b, int(threadIdx.x), s_moves, s_owner);
}

// A view of one run's device memory and stream: it owns nothing (the
// device's owner in gpu_perft.cu does), and every call is ordered on `stream`.
class DeviceExec {
   public:
    DeviceExec(cudaStream_t stream, void* arena, std::size_t bytes, uint32_t* error_flag, Attacks tables, Zobrist keys,
               TableMemory table_memory)
        : stream_(stream),
          arena_(arena, bytes),
          error_(error_flag),
          at_(tables),
          keys_(keys),
          table_memory_(table_memory) {
        cuda_check(cudaMemsetAsync(error_, 0, sizeof(uint32_t), stream_), "cudaMemsetAsync(error flag)");
    }

    StackArena& arena() { return arena_; }
    Attacks tables() const { return at_; }
    Zobrist zobrist() const { return keys_; }
    TableMemory table_memory() const { return table_memory_; }
    std::size_t table_bytes() const { return table_memory_.bytes; }
    uint32_t* error_flag() { return error_; }
    void check_error(const char* what) {
        if (read(error_)) throw std::runtime_error(std::string("GPU perft: ") + what);
    }

    // From pageable host memory: the source is staged before the call
    // returns, so the caller may reuse it at once.
    template <class T>
    void upload(T* dst, const T* src, uint64_t n) {
        cuda_check(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyHostToDevice, stream_),
                   "cudaMemcpyAsync(upload)");
    }
    // Waits for the stream: the data is there when it returns.
    template <class T>
    void download(T* dst, const T* src, uint64_t n) {
        cuda_check(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost, stream_),
                   "cudaMemcpyAsync(download)");
        cuda_check(cudaStreamSynchronize(stream_), "download (waiting for the stream)");
    }
    template <class T>
    T read(const T* p) {
        T v;
        download(&v, p, 1);
        return v;
    }
    template <class T>
    void clear(T* p, uint64_t n) {
        cuda_check(cudaMemsetAsync(p, 0, n * sizeof(T), stream_), "cudaMemsetAsync(clear)");
    }

    template <class F>
    void for_each(uint64_t n, const F& f) {
        if (n == 0) return;
        constexpr int B = LaunchShape<F>::block;
        for_each_kernel<<<unsigned((n + B - 1) / B), B, 0, stream_>>>(f, n);
        check_launch<F>("for_each");
    }

    template <class F>
    void accumulate(uint64_t n, const F& f, uint64_t* counters) {
        if (n == 0) return;
        constexpr int B = LaunchShape<F>::block;
        static_assert(B % WARP == 0, "warp accumulation needs whole warps");
        accumulate_kernel<<<unsigned((n + B - 1) / B), B, 0, stream_>>>(
            f, n, reinterpret_cast<unsigned long long*>(counters));
        check_launch<F>("accumulate");
    }

    template <class F>
    void accumulate_rows(uint64_t n, const F& f, uint64_t* rows) {
        if (n == 0) return;
        accumulate_rows_kernel<<<unsigned((n + ROWS_BLOCK - 1) / ROWS_BLOCK), ROWS_BLOCK, 0, stream_>>>(
            f, n, reinterpret_cast<unsigned long long*>(rows));
        check_launch<F>("row accumulation");
    }

    template <class G>
    void generate(const G& g) {
        if (g.parents_n == 0) return;
        generate_kernel<<<unsigned((g.parents_n + GENERATE_BLOCK - 1) / GENERATE_BLOCK), GENERATE_BLOCK, 0, stream_>>>(
            g);
        check_launch<G>("generate");
    }

    // out[i] = in[0] + ... + in[i - 1] in 64 bits; returns the sum of all n.
    uint64_t exclusive_scan(const uint32_t* in, uint64_t* out, uint64_t n) {
        if (n == 0) return 0;
        if (n > uint64_t(INT32_MAX)) throw std::runtime_error("GPU perft: scan of more than 2^31 - 1 items");
        const cuda::std::plus<> plus;
        std::size_t temp_bytes = 0;
        cuda_check(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, in, out, plus, uint64_t(0), int(n), stream_),
                   "scan size query");
        ArenaScope scope(arena_);
        void* temp = arena_.alloc<std::byte>(temp_bytes, "scan scratch");
        check_cub(cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, plus, uint64_t(0), int(n), stream_),
                  "CUB exclusive scan");
        return read(out + n - 1) + read(in + n - 1);
    }

    // data[i] = max(data[0], ..., data[i]), in place (CUB allows d_in == d_out).
    void inclusive_max_scan(uint32_t* data, uint64_t n) {
        if (n > uint64_t(INT32_MAX)) throw std::runtime_error("GPU perft: scan of more than 2^31 - 1 items");
        std::size_t temp_bytes = 0;
        cuda_check(cub::DeviceScan::InclusiveScan(nullptr, temp_bytes, data, data, MaxIndex{}, int(n), stream_),
                   "max-scan size query");
        ArenaScope scope(arena_);
        void* temp = arena_.alloc<std::byte>(temp_bytes, "max-scan scratch");
        check_cub(cub::DeviceScan::InclusiveScan(temp, temp_bytes, data, data, MaxIndex{}, int(n), stream_),
                  "CUB max-scan");
    }

    // Stable radix sort of (keys, ids) by all 64 key bits, double-buffered:
    // afterwards keys/ids point at the sorted arrays.
    void sort_pairs(SortBuffers& b, uint64_t n) {
        if (n > uint64_t(INT32_MAX)) throw std::runtime_error("GPU perft: sort of more than 2^31 - 1 items");
        cub::DoubleBuffer<uint64_t> keys(b.keys, b.keys_alt);
        cub::DoubleBuffer<uint32_t> ids(b.ids, b.ids_alt);
        std::size_t temp_bytes = 0;
        constexpr int KEY_BITS = 64;
        cuda_check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, ids, int(n), 0, KEY_BITS, stream_),
                   "sort size query");
        ArenaScope scope(arena_);
        void* temp = arena_.alloc<std::byte>(temp_bytes, "sort scratch");
        check_cub(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, ids, int(n), 0, KEY_BITS, stream_),
                  "CUB radix sort");
        b = SortBuffers{keys.Current(), keys.Alternate(), ids.Current(), ids.Alternate()};
    }

   private:
    cudaStream_t stream_;
    StackArena arena_;
    uint32_t* error_;
    Attacks at_;
    Zobrist keys_;
    TableMemory table_memory_;
};

}  // namespace perftide::gpu
