// The frontier pipeline on the GPU: the same source as the host build
// (frontier_impl.cuh), instantiated with Thrust's CUDA system.
#include <cuda_runtime.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/vector.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "frontier/frontier_impl.cuh"
#include "gpu/gpu_perft.hpp"

namespace perftide::frontier {

namespace {

// Thrust's CUDA allocator throws from deallocate once the device has
// faulted (a sticky error), and a vector destroyed while an exception
// unwinds would then end in std::terminate. This one frees and ignores that
// error: the fault is reported by the call that met it (exit 3, a message).
template <class T>
struct QuietFreeAllocator : thrust::cuda::allocator<T> {
    using base = thrust::cuda::allocator<T>;
    QuietFreeAllocator() = default;
    template <class U>
    QuietFreeAllocator(const QuietFreeAllocator<U>&) {}
    template <class U>
    struct rebind {
        using other = QuietFreeAllocator<U>;
    };
    void deallocate(typename base::pointer p, std::size_t) noexcept { (void)cudaFree(thrust::raw_pointer_cast(p)); }
};

// The temporary buffers of Thrust's algorithms (sort, scan, reduce_by_key)
// come from this allocator for the same reason: with plain
// thrust::cuda::par they are freed by a noexcept deallocator that throws
// after a device fault, which ends in std::terminate (exit 134) instead of
// the fault's message and exit 3. A failed allocation throws bad_alloc (out
// of memory) or the CUDA error it met.
struct QuietTempAllocator {
    using value_type = char;
    char* allocate(std::ptrdiff_t bytes) {
        void* p = nullptr;
        const cudaError_t e = cudaMalloc(&p, size_t(bytes));
        if (e == cudaErrorMemoryAllocation) {
            (void)cudaGetLastError();  // not sticky: clear it
            throw std::bad_alloc();
        }
        if (e != cudaSuccess)
            throw std::runtime_error(std::string("CUDA error in a Thrust temporary buffer: ") + cudaGetErrorString(e));
        return static_cast<char*>(p);
    }
    void deallocate(char* p, std::size_t) noexcept { (void)cudaFree(p); }
};

struct CudaSystem {
    template <class T>
    using vector = thrust::cuda::vector<T, QuietFreeAllocator<T>>;
    template <class F>
    static auto dispatch(size_t, F&& f) {
        QuietTempAllocator temp;
        return f(thrust::cuda::par(temp));
    }
};

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace

std::unique_ptr<Expander> detail::make_device_expander(const Options& o) {
    const gpu::Status s = gpu::status();
    if (!s.available) throw std::runtime_error(s.message);
    gpu::DeviceFree device;
    check(cudaMemGetInfo(&device.free, &device.total), "cudaMemGetInfo");
    const uint64_t budget = detail::gpu_frontier_budget(o, device);
    return std::make_unique<detail::Pipeline<CudaSystem>>(budget, gpu::device_attacks(), device.free);
}

std::vector<PositionFacts> detail::position_facts_device(const std::vector<chess::Position>& positions) {
    return detail::position_facts<CudaSystem>(positions, gpu::device_attacks());
}

}  // namespace perftide::frontier
