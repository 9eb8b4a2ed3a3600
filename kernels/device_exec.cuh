// The breadth-first pipeline's executor on a CUDA device: kernels that run
// the per-item work of level_work.hpp, CUB's scan, and cudaMemcpy for the few
// values the host driver reads. GPU-only refinements live here: the warp
// shuffles behind accumulate and the shared-memory staging behind generate
// (host_exec.hpp models both step by step). Every call and launch is checked.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <stdexcept>
#include <string>

#include "level_work.hpp"
#include "stack_arena.hpp"

// Launch shape of the fused leaf kernel: with 384 threads and 3 blocks per SM
// the compiler keeps to 56 registers (75% occupancy); override to experiment.
#ifndef GPERFT_LEAF_BLOCK
#define GPERFT_LEAF_BLOCK 384
#endif
#ifndef GPERFT_LEAF_MIN_BLOCKS
#define GPERFT_LEAF_MIN_BLOCKS 3
#endif

namespace gperft::gpu {

inline void cuda_check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

template <class F>
struct LaunchShape {
    static constexpr int block = 256;
    static constexpr int min_blocks = 1;
};
template <Color Us, int Plies>
struct LaunchShape<LeafCount<Us, Plies>> {
    static constexpr int block = GPERFT_LEAF_BLOCK;
    static constexpr int min_blocks = GPERFT_LEAF_MIN_BLOCKS;
};

template <class F>
__global__ void __launch_bounds__(LaunchShape<F>::block, LaunchShape<F>::min_blocks)
    for_each_kernel(F f, uint64_t n) {
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

template <class G>
__global__ void __launch_bounds__(GENERATE_BLOCK) generate_kernel(G g) {
    __shared__ uint16_t s_moves[STAGE_CAPACITY];
    __shared__ uint8_t s_owner[STAGE_CAPACITY];
    const StageBlock b = stage_block(g, blockIdx.x);
    stage_moves(g, b, int(threadIdx.x), s_moves, s_owner);
    __syncthreads();
    write_stage(g, b, int(threadIdx.x), s_moves, s_owner);
}

class DeviceExec {
   public:
    DeviceExec(void* arena, std::size_t bytes, uint32_t* error_flag, Attacks tables)
        : arena_(arena, bytes), error_(error_flag), at_(tables) {
        cuda_check(cudaMemset(error_, 0, sizeof(uint32_t)), "cudaMemset(error flag)");
    }

    StackArena& arena() { return arena_; }
    Attacks tables() const { return at_; }
    uint32_t* error_flag() { return error_; }
    void check_error(const char* what) {
        if (read(error_)) throw std::runtime_error(std::string("GPU perft: ") + what);
    }

    template <class T>
    void upload(T* dst, const T* src, uint64_t n) {
        cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy(upload)");
    }
    template <class T>
    void download(T* dst, const T* src, uint64_t n) {
        cuda_check(cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy(download)");
    }
    template <class T>
    T read(const T* p) {
        T v;
        download(&v, p, 1);
        return v;
    }

    template <class F>
    void for_each(uint64_t n, const F& f) {
        if (n == 0) return;
        constexpr int B = LaunchShape<F>::block;
        for_each_kernel<<<unsigned((n + B - 1) / B), B>>>(f, n);
        cuda_check(cudaGetLastError(), "for_each launch");
    }

    template <class F>
    void accumulate(uint64_t n, const F& f, uint64_t* counters) {
        if (n == 0) return;
        constexpr int B = LaunchShape<F>::block;
        static_assert(B % WARP == 0, "warp accumulation needs whole warps");
        accumulate_kernel<<<unsigned((n + B - 1) / B), B>>>(f, n, reinterpret_cast<unsigned long long*>(counters));
        cuda_check(cudaGetLastError(), "accumulate launch");
    }

    template <class G>
    void generate(const G& g) {
        if (g.parents_n == 0) return;
        generate_kernel<<<unsigned((g.parents_n + GENERATE_BLOCK - 1) / GENERATE_BLOCK), GENERATE_BLOCK>>>(g);
        cuda_check(cudaGetLastError(), "generate launch");
    }

    // out[i] = in[0] + ... + in[i - 1] in 64 bits; returns the sum of all n.
    uint64_t exclusive_scan(const uint32_t* in, uint64_t* out, uint64_t n) {
        if (n > uint64_t(INT32_MAX)) throw std::runtime_error("GPU perft: scan of more than 2^31 - 1 items");
        const cuda::std::plus<> plus;
        std::size_t temp_bytes = 0;
        cuda_check(cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, in, out, plus, uint64_t(0), int(n)),
                   "scan size query");
        ArenaScope scope(arena_);
        void* temp = arena_.alloc<std::byte>(temp_bytes, "scan scratch");
        cuda_check(cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, plus, uint64_t(0), int(n)), "scan");
        return read(out + n - 1) + read(in + n - 1);
    }

   private:
    StackArena arena_;
    uint32_t* error_;
    Attacks at_;
};

}  // namespace gperft::gpu
