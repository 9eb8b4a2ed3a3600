// The GPU backend: the breadth-first pipeline (level_pipeline.hpp) over
// DeviceExec. One device copy of the lookup tables and one working arena,
// sized from free device memory, live for the whole process.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "device_exec.cuh"
#include "gpu_perft.hpp"
#include "level_pipeline.hpp"

namespace gperft::gpu {
namespace {

// Device memory the engine keeps between calls: the tables (uploaded once),
// an error flag and the arena. Freed by the driver at process exit.
class Engine {
   public:
    static Engine& instance() {
        static Engine engine;
        return engine;
    }

    // The arena: `requested` bytes, or when 0 the free memory less headroom
    // for the CUDA context and libraries, retried smaller if another process
    // takes memory meanwhile.
    void ensure_arena(std::size_t requested) {
        if (arena_ && (requested == 0 ? auto_sized_ : requested == arena_bytes_)) return;
        release_arena();
        if (requested) return allocate(requested, requested);
        std::size_t free = 0, total = 0;
        cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        const std::size_t headroom = std::max<std::size_t>(total / 32, std::size_t(512) << 20);
        constexpr std::size_t MIN_ARENA = std::size_t(64) << 20;
        if (free < headroom + MIN_ARENA)
            throw std::runtime_error("GPU perft: only " + std::to_string(free >> 20) + " MiB of device memory free");
        allocate(free - headroom, MIN_ARENA);
        auto_sized_ = true;
    }

    DeviceExec exec() { return DeviceExec(arena_, arena_bytes_, error_, chess::Attacks{tables_}); }
    std::mutex& mutex() { return mutex_; }

   private:
    Engine() {
        const auto host = chess::build_attack_data();
        cuda_check(cudaMalloc(&tables_, sizeof(chess::AttackData)), "cudaMalloc(tables)");
        cuda_check(cudaMemcpy(tables_, host.get(), sizeof(chess::AttackData), cudaMemcpyHostToDevice),
                   "cudaMemcpy(tables)");
        cuda_check(cudaMalloc(&error_, sizeof(uint32_t)), "cudaMalloc(error flag)");
    }

    void allocate(std::size_t bytes, std::size_t minimum) {
        for (;;) {
            const cudaError_t e = cudaMalloc(&arena_, bytes);
            if (e == cudaSuccess) break;
            if (e != cudaErrorMemoryAllocation || bytes / 4 * 3 < minimum) cuda_check(e, "cudaMalloc(arena)");
            (void)cudaGetLastError();  // clear the allocation failure before retrying
            bytes = bytes / 4 * 3;
        }
        arena_bytes_ = bytes;
        auto_sized_ = false;
    }

    void release_arena() {
        if (arena_) cuda_check(cudaFree(arena_), "cudaFree(arena)");
        arena_ = nullptr;
        arena_bytes_ = 0;
    }

    chess::AttackData* tables_ = nullptr;
    uint32_t* error_ = nullptr;
    void* arena_ = nullptr;
    std::size_t arena_bytes_ = 0;
    bool auto_sized_ = false;
    std::mutex mutex_;
};

}  // namespace

// Asked once: the answer does not change while the process runs.
Status status() {
    static const Status cached = [] {
        int n = 0;
        const cudaError_t e = cudaGetDeviceCount(&n);
        if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || (e == cudaSuccess && n == 0))
            return Status{false, "no CUDA device: " + std::string(e == cudaSuccess ? "none found" : cudaGetErrorString(e))};
        if (e != cudaSuccess) return Status{false, std::string("CUDA unusable: ") + cudaGetErrorString(e)};
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return Status{false, "CUDA device 0 cannot be queried"};
        return Status{true, prop.name};
    }();
    return cached;
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth) {
    return perft_batch(roots, depth, Options{});
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    const Status s = status();
    if (!s.available) throw std::runtime_error(s.message);
    Engine& engine = Engine::instance();
    std::lock_guard<std::mutex> lock(engine.mutex());
    engine.ensure_arena(options.arena_bytes);
    DeviceExec exec = engine.exec();
    Stats local;
    auto out = perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
    cuda_check(cudaDeviceSynchronize(), "perft kernels");
    return out;
}

}  // namespace gperft::gpu
