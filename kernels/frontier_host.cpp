// The frontier pipeline on the host: Thrust's OpenMP system when OpenMP is
// available (GPERFT_FRONTIER_OMP), its sequential C++ system otherwise.
#include <unistd.h>

#include <algorithm>

#include "frontier_impl.cuh"

#ifdef GPERFT_FRONTIER_OMP
#include <omp.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>
#else
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/cpp/vector.h>
#endif

namespace gperft::frontier {

namespace {

// The OpenMP system for large steps; small ones run sequentially, since a
// parallel region costs more than it saves on them (and idle OpenMP threads
// spin, which hurts on a loaded machine).
constexpr size_t PARALLEL_MIN_ITEMS = 1 << 15;

struct HostSystem {
#ifdef GPERFT_FRONTIER_OMP
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

}  // namespace

std::unique_ptr<Engine> make_host_pipeline_engine(const Options& o) {
#ifdef GPERFT_FRONTIER_OMP
    if (o.threads > 0) omp_set_num_threads(o.threads);
#endif
    uint64_t budget = o.budget_bytes;
    if (budget == 0)
        budget = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE)) / 4 /
                 uint64_t(std::max(o.memory_sharers, 1));
    return std::make_unique<detail::Pipeline<HostSystem>>(budget, chess::host_attacks());
}

std::vector<PositionFacts> position_facts_host(const std::vector<chess::Position>& positions) {
    return detail::position_facts<HostSystem>(positions, chess::host_attacks());
}

bool position_less(const chess::Position& a, const chess::Position& b) { return detail::PositionLess{}(a, b); }

#ifndef GPERFT_FRONTIER_CUDA
constexpr const char* NO_CUDA = "this gperft was built without CUDA (nvcc was not found at configure time)";
std::unique_ptr<Engine> make_gpu_engine(const Options&) {
    throw std::runtime_error(NO_CUDA);
}
std::vector<PositionFacts> position_facts_gpu(const std::vector<chess::Position>&) { throw std::runtime_error(NO_CUDA); }
#endif

}  // namespace gperft::frontier
