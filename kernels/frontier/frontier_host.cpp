// The frontier pipeline on the host: Thrust's OpenMP system when OpenMP is
// available (PERFTIDE_FRONTIER_OMP), its sequential C++ system otherwise.
#include <unistd.h>

#include <algorithm>

#include "base/machine.hpp"
#include "frontier/frontier_impl.cuh"
#include "gpu/host_pipeline.hpp"

#ifdef PERFTIDE_FRONTIER_OMP
#include <omp.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>
#include <thrust/system/omp/execution_policy.h>
#else
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>
#endif

namespace perftide::frontier {

namespace {

// The OpenMP system for large steps; small ones run sequentially, since a
// parallel region costs more than it saves on them (and idle OpenMP threads
// spin, which hurts on a loaded machine).
constexpr size_t PARALLEL_MIN_ITEMS = 1 << 15;

struct HostSystem {
#ifdef PERFTIDE_FRONTIER_OMP
    template <class T>
    using vector = thrust::cpp::vector<T>;  // host memory; filled without a parallel region
    template <class F>
    static auto dispatch(size_t n, F&& f) {
        return n >= PARALLEL_MIN_ITEMS ? f(thrust::omp::par) : f(thrust::cpp::par);
    }
#else
    template <class T>
    using vector = thrust::cpp::vector<T>;
    template <class F>
    static auto dispatch(size_t, F&& f) {
        return f(thrust::cpp::par);
    }
#endif
};

// capacity: as the GPU engine's (0: no limit).
std::unique_ptr<Expander> host_pipeline(const Options& o, uint64_t capacity) {
#ifdef PERFTIDE_FRONTIER_OMP
    if (o.threads > 0) omp_set_num_threads(o.threads);
#endif
    uint64_t budget = o.budget_bytes;
    if (budget == 0)
        budget = uint64_t(machine::available_bytes()) / 4 / uint64_t(std::max(o.memory_sharers, 1));
    return std::make_unique<detail::Pipeline<HostSystem>>(budget, chess::host_attacks(), capacity);
}

}  // namespace

std::unique_ptr<Expander> make_host_pipeline_expander(const Options& o) { return host_pipeline(o, 0); }

std::vector<PositionFacts> position_facts_host(const std::vector<chess::Position>& positions) {
    return detail::position_facts<HostSystem>(positions, chess::host_attacks());
}

uint64_t detail::gpu_frontier_budget(const Options& o, const gpu::DeviceFree& device) {
    return gpu::frontier_budget(device, gpu::device_memory_cap(), o.budget_bytes);
}

// The host pipeline standing in for the device (PERFTIDE_HOST_GPU) takes the
// GPU engine's budget and capacity of a pretend device, and its planted
// fault.
std::unique_ptr<Expander> make_gpu_expander(const Options& o) {
    if (!gpu::host::stand_in::active()) return detail::make_device_expander(o);
    constexpr uint64_t FREE = gpu::host::stand_in::STAND_IN_BYTES;
    Options host = o;
    host.budget_bytes = detail::gpu_frontier_budget(o, gpu::DeviceFree{FREE, FREE});
    gpu::host::stand_in::raise_planted_fault("the frontier of perftide unique");
    return host_pipeline(host, FREE);
}

// The move counts take little memory, but the cap's form is checked as by
// every GPU call, so that a bad PERFTIDE_DEVICE_MEMORY never passes.
std::vector<PositionFacts> position_facts_gpu(const std::vector<chess::Position>& positions) {
    gpu::device_memory_cap();
    if (!gpu::host::stand_in::active()) return detail::position_facts_device(positions);
    gpu::host::stand_in::raise_planted_fault("the move counts of analyze");
    return position_facts_host(positions);
}

#ifndef PERFTIDE_FRONTIER_CUDA
constexpr const char* NO_CUDA = "this perftide was built without CUDA (nvcc was not found at configure time)";
std::unique_ptr<Expander> detail::make_device_expander(const Options&) { throw std::runtime_error(NO_CUDA); }
std::vector<PositionFacts> detail::position_facts_device(const std::vector<chess::Position>&) {
    throw std::runtime_error(NO_CUDA);
}
#endif

}  // namespace perftide::frontier
