// The frontier pipeline on the GPU: the same source as the host build
// (frontier_impl.cuh), instantiated with Thrust's CUDA system.
#include <cuda_runtime.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/vector.h>

#include <memory>

#include "frontier_impl.cuh"
#include "gpu_perft.hpp"

namespace gperft::frontier {

namespace {

struct CudaSystem {
    template <class T>
    using vector = thrust::cuda::vector<T>;
    template <class F>
    static auto dispatch(size_t, F&& f) {
        return f(thrust::cuda::par);
    }
};

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace

std::unique_ptr<Engine> make_gpu_engine(const Options& o) {
    const gpu::Status s = gpu::status();
    if (!s.available) throw std::runtime_error(s.message);
    uint64_t budget = o.budget_bytes;
    if (budget == 0) {
        size_t free_bytes = 0, total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        budget = free_bytes / 2;
    }
    return std::make_unique<detail::Pipeline<CudaSystem>>(budget, gpu::device_attacks());
}

std::vector<PositionFacts> position_facts_gpu(const std::vector<chess::Position>& positions) {
    return detail::position_facts<CudaSystem>(positions, gpu::device_attacks());
}

}  // namespace gperft::frontier
