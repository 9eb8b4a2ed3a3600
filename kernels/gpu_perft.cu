// The GPU backend: the breadth-first pipeline (level_pipeline.hpp) over
// DeviceExec. One device copy of the lookup tables, of the Zobrist keys of the
// current seed, the transposition tables and one working arena live for the
// whole process; the tables keep their contents between calls with the same
// sizes and seed.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

#include "device_exec.cuh"
#include "device_memory.hpp"
#include "gpu_perft.hpp"
#include "level_pipeline.hpp"

namespace gperft::gpu {
namespace {

// The device's memory for the GPU engine, one owner per process: the attack
// tables, the Zobrist keys and the error flag for the process's life; the
// arena and transposition tables only for a run (sized by
// plan_device_memory within device_memory_limit(), given back when the run
// ends: by the call itself without tables, by release_device_memory()
// after a deep run's last call).
class Engine {
   public:
    static Engine& instance() {
        static Engine engine;
        return engine;
    }

    // Tables and arena as `o` asks, reusing what is there when the requests
    // are the same as last time; the keys of o.zobrist_seed (tables cleared
    // when the seed changes: their entries were keyed with other keys).
    void configure(const Options& o) {
        if (o.table_bytes < AUTO_TABLES)
            throw std::invalid_argument("table_bytes must be >= 0 or AUTO_TABLES, not " + std::to_string(o.table_bytes));
        if (!arena_ || o.arena_bytes != arena_request_ || o.table_bytes != table_request_ ||
            device_memory_limit() != limit_) {
            release();
            allocate(o);
            arena_request_ = o.arena_bytes;
            table_request_ = o.table_bytes;
            limit_ = device_memory_limit();
            keys_ready_ = false;  // fresh tables: cleared with the keys below
        }
        if (!keys_ready_ || o.zobrist_seed != keys_seed_) {
            const auto host = chess::build_zobrist_data(o.zobrist_seed);
            cuda_check(cudaMemcpy(keys_, host.get(), sizeof(chess::ZobristData), cudaMemcpyHostToDevice),
                       "cudaMemcpy(Zobrist keys)");
            if (table_memory_) cuda_check(cudaMemset(table_memory_, 0, table_bytes_), "cudaMemset(tables)");
            keys_seed_ = o.zobrist_seed;
            keys_ready_ = true;
        }
    }

    DeviceExec exec() {
        return DeviceExec(arena_, arena_bytes_, error_, attacks(), chess::Zobrist{keys_},
                          layout_tables(table_memory_, table_bytes_), table_bytes_);
    }
    std::mutex& mutex() { return mutex_; }
    chess::Attacks attacks() const { return chess::Attacks{tables_}; }

   private:
    Engine() {
        const auto host = chess::build_attack_data();
        cuda_check(cudaMalloc(&tables_, sizeof(chess::AttackData)), "cudaMalloc(tables)");
        cuda_check(cudaMemcpy(tables_, host.get(), sizeof(chess::AttackData), cudaMemcpyHostToDevice),
                   "cudaMemcpy(tables)");
        cuda_check(cudaMalloc(&error_, sizeof(uint32_t)), "cudaMalloc(error flag)");
        cuda_check(cudaMalloc(&keys_, sizeof(chess::ZobristData)), "cudaMalloc(Zobrist keys)");
    }

    // Arena and tables within the run's device memory budget
    // (device_memory.hpp), the arena retried smaller when another process
    // takes memory between the query and the allocation.
    void allocate(const Options& o) {
        std::size_t free = 0, total = 0;
        cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
        const long long tables = o.table_bytes == AUTO_TABLES ? -1 : o.table_bytes;
        const DeviceMemoryPlan plan =
            plan_device_memory(free, total, device_memory_limit(), tables, o.arena_bytes, AUTO_TABLE_SHARE);
        const std::size_t table_bytes = plan.table_bytes / sizeof(TableEntry) * sizeof(TableEntry);
        if (table_bytes) {
            cuda_check(cudaMalloc(&table_memory_, table_bytes), "cudaMalloc(transposition tables)");
            table_bytes_ = table_bytes;
            cuda_check(cudaMemset(table_memory_, 0, table_bytes), "cudaMemset(tables)");
        }
        std::size_t bytes = plan.arena_bytes;
        const std::size_t minimum = o.arena_bytes ? o.arena_bytes : MIN_ARENA_BYTES;
        for (;;) {
            const cudaError_t e = cudaMalloc(&arena_, bytes);
            if (e == cudaSuccess) break;
            if (e != cudaErrorMemoryAllocation || bytes / 4 * 3 < minimum) cuda_check(e, "cudaMalloc(arena)");
            (void)cudaGetLastError();  // clear the allocation failure before retrying
            bytes = bytes / 4 * 3;
        }
        arena_bytes_ = bytes;
    }

   public:
    // Frees the arena and tables; errors are ignored, so that it can run
    // while a device fault unwinds (the fault is reported where it was met).
    void release() noexcept {
        if (arena_) (void)cudaFree(arena_);
        if (table_memory_) (void)cudaFree(table_memory_);
        arena_ = table_memory_ = nullptr;
        arena_bytes_ = table_bytes_ = 0;
    }
    bool has_tables() const { return table_memory_ != nullptr; }

   private:
    chess::AttackData* tables_ = nullptr;
    chess::ZobristData* keys_ = nullptr;
    uint64_t keys_seed_ = 0;
    bool keys_ready_ = false;
    uint32_t* error_ = nullptr;
    void* arena_ = nullptr;
    std::size_t arena_bytes_ = 0, arena_request_ = 0;
    void* table_memory_ = nullptr;
    std::size_t table_bytes_ = 0;
    long long table_request_ = 0;
    std::size_t limit_ = 0;
    std::mutex mutex_;
};

}  // namespace

// Asked once: the answer does not change while the process runs.
Status status() {
    static const Status cached = [] {
        int n = 0;
        const cudaError_t e = cudaGetDeviceCount(&n);
        // Without an NVIDIA driver the runtime says "driver version is
        // insufficient": on such a machine there is simply no device.
        const bool driver = access("/proc/driver/nvidia/version", F_OK) == 0;
        if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0) || (e == cudaErrorInsufficientDriver && !driver))
            return Status{false, "no CUDA device found"};
        if (e == cudaErrorInsufficientDriver)
            return Status{false, std::string("no usable CUDA device: the NVIDIA driver is older than this CUDA runtime (") +
                                     cudaGetErrorString(e) + ")"};
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

namespace {

// Runs f(exec) on the engine configured for `options`, one caller at a time,
// and waits for the device (`what` names the kernels in an error).
template <class F>
auto on_device(const Options& options, const char* what, F&& f) {
    const Status s = status();
    if (!s.available) throw std::runtime_error(s.message);
    Engine& engine = Engine::instance();
    std::lock_guard<std::mutex> lock(engine.mutex());
    engine.configure(options);
    // A call without tables gives its memory back when it ends, also on an
    // exception; tables stay for the next call of the run.
    struct GiveBack {
        Engine& e;
        ~GiveBack() {
            if (!e.has_tables()) e.release();
        }
    } give_back{engine};
    DeviceExec exec = engine.exec();
    auto out = f(exec);
    cuda_check(cudaDeviceSynchronize(), what);
    return out;
}

}  // namespace

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    Stats local;
    return on_device(options, "perft kernels", [&](DeviceExec& exec) {
        return perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
    });
}

void release_device_memory() {
    if (!status().available) return;
    Engine& engine = Engine::instance();
    std::lock_guard<std::mutex> lock(engine.mutex());
    engine.release();
}

chess::Attacks device_attacks() {
    const Status s = status();
    if (!s.available) throw std::runtime_error(s.message);
    return Engine::instance().attacks();  // built once, thread-safely, with the engine
}

std::vector<StatsRow> perft_stats(const chess::Position& root, int depth, const Options& options, Stats* stats) {
    Stats local;
    return on_device(options, "statistics kernels", [&](DeviceExec& exec) {
        return perft_stats_with(exec, root, depth, options, stats ? *stats : local);
    });
}

}  // namespace gperft::gpu
