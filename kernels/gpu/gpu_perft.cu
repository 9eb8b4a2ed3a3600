// The GPU backend: the breadth-first pipeline (level_pipeline.hpp) over
// DeviceExec. Each CUDA device in use has one owner (Device): its stream, its
// copy of the lookup tables and of the Zobrist keys of the current seed, its
// error flag, and the memory kept between its calls (pipeline_memory.hpp:
// the working arena, sized by the arena plan, and the transposition tables,
// which keep their contents between calls with the same sizes and seed).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/device_exec.cuh"
#include "gpu/device_memory.hpp"
#include "gpu/gpu_device.hpp"
#include "gpu/level_pipeline.hpp"
#include "gpu/pipeline_memory.hpp"

namespace perftide::gpu {
namespace {

// cudaMalloc for PipelineMemory: nullptr when the device has not the memory,
// a thrown error for any other failure.
struct CudaAllocator {
    cudaStream_t stream = nullptr;
    void* allocate(std::size_t bytes) {
        void* p = nullptr;
        const cudaError_t e = cudaMalloc(&p, bytes);
        if (e == cudaErrorMemoryAllocation) {
            (void)cudaGetLastError();  // not sticky: clear it, the caller may retry smaller
            return nullptr;
        }
        cuda_check(e, "cudaMalloc");
        return p;
    }
    // Errors are ignored, so that it can run while a device fault unwinds
    // (the fault is reported where it was met).
    void deallocate(void* p, std::size_t) noexcept { (void)cudaFree(p); }
    void zero(void* p, std::size_t bytes) {
        cuda_check(cudaMemsetAsync(p, 0, bytes, stream), "cudaMemsetAsync(tables)");
    }
};

// One device's resources, owned for as long as the process uses the device
// and freed by the destructor. Non-copyable: kernels get DeviceExec views.
class Device {
   public:
    Device() {
        cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
        memory_.allocator().stream = stream_;
        try {
            const auto host = chess::build_attack_data();
            cuda_check(cudaMalloc(&tables_, sizeof(chess::AttackData)), "cudaMalloc(attack tables)");
            cuda_check(cudaMemcpyAsync(tables_, host.get(), sizeof(chess::AttackData), cudaMemcpyHostToDevice, stream_),
                       "cudaMemcpyAsync(attack tables)");
            cuda_check(cudaMalloc(&error_, sizeof(uint32_t)), "cudaMalloc(error flag)");
            cuda_check(cudaMalloc(&keys_, sizeof(chess::ZobristData)), "cudaMalloc(Zobrist keys)");
            cuda_check(cudaStreamSynchronize(stream_), "uploading the attack tables");
        } catch (...) {
            free_all();
            throw;
        }
    }
    ~Device() { free_all(); }
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    // Tables as `o` asks (of rows when `rows`) and an arena for arena_want bytes, within the cap
    // (device_memory.hpp), kept from the calls before when they serve, and
    // the keys of o.zobrist_seed.
    void configure(const Options& o, bool rows, std::size_t arena_want) {
        const bool new_keys = prepare_for(memory_, o, rows, arena_want, [] {
            DeviceFree d;
            cuda_check(cudaMemGetInfo(&d.free, &d.total), "cudaMemGetInfo");
            return d;
        });
        if (new_keys) {
            const auto host = chess::build_zobrist_data(o.zobrist_seed);
            cuda_check(cudaMemcpyAsync(keys_, host.get(), sizeof(chess::ZobristData), cudaMemcpyHostToDevice, stream_),
                       "cudaMemcpyAsync(Zobrist keys)");
        }
    }

    DeviceExec exec() {
        return DeviceExec(stream_, memory_.arena(), memory_.arena_bytes(), error_, attacks(), chess::Zobrist{keys_},
                          TableMemory{memory_.tables(), memory_.table_bytes()});
    }
    void synchronize(const char* what) { cuda_check(cudaStreamSynchronize(stream_), what); }
    std::mutex& mutex() { return mutex_; }
    chess::Attacks attacks() const { return chess::Attacks{tables_}; }
    // The end of a call (an arena above the kept size goes back unless
    // tables hold it) and of a run or a trim (all).
    void end_call() noexcept { memory_.end_call(); }
    void release() noexcept { memory_.release(); }

   private:
    void free_all() noexcept {
        memory_.release();
        if (tables_) (void)cudaFree(tables_);
        if (error_) (void)cudaFree(error_);
        if (keys_) (void)cudaFree(keys_);
        if (stream_) (void)cudaStreamDestroy(stream_);
        tables_ = nullptr, error_ = nullptr, keys_ = nullptr, stream_ = nullptr;
    }

    cudaStream_t stream_ = nullptr;
    chess::AttackData* tables_ = nullptr;
    chess::ZobristData* keys_ = nullptr;
    uint32_t* error_ = nullptr;
    PipelineMemory<CudaAllocator> memory_;
    std::mutex mutex_;
};

// The Device of the calling thread's current CUDA device, made on first use
// (one per device, each owning its resources; the map only finds them). The
// runtime is up before the map is made, so the map goes first at exit.
Device& current_device() {
    int ordinal = 0;
    cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
    static std::mutex m;
    static std::map<int, std::unique_ptr<Device>> devices;
    std::lock_guard<std::mutex> lock(m);
    std::unique_ptr<Device>& d = devices[ordinal];
    if (!d) d = std::make_unique<Device>();
    return *d;
}

}  // namespace

namespace device {

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
            return Status{false,
                          std::string("no usable CUDA device: the NVIDIA driver is older than this CUDA runtime (") +
                              cudaGetErrorString(e) + ")"};
        if (e != cudaSuccess) return Status{false, std::string("CUDA unusable: ") + cudaGetErrorString(e)};
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return Status{false, "CUDA device 0 cannot be queried"};
        return Status{true, prop.name};
    }();
    return cached;
}

namespace {

// Runs f(exec) on the engine configured for `options` and the call's arena
// plan (`shape`), one caller at a time, and waits for the device (`what`
// names the kernels in an error).
template <class F>
auto on_device(const Options& options, const ArenaInputs& shape, const char* what, F&& f) {
    const Status s = status();
    if (!s.available) throw std::runtime_error(s.message);
    Device& device = current_device();
    std::lock_guard<std::mutex> lock(device.mutex());
    // The memory is kept for the next call, within kept_arena_bytes() when
    // the call has no tables (pipeline_memory.hpp), also on an exception.
    struct EndCall {
        Device& d;
        ~EndCall() { d.end_call(); }
    } end_call{device};
    device.configure(options, shape.stats, plan_arena(shape).arena_bytes);
    DeviceExec exec = device.exec();
    auto out = f(exec);
    device.synchronize(what);
    return out;
}

}  // namespace

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    Stats local;
    return on_device(options, call_arena_inputs(roots, depth, options, false), "perft kernels", [&](DeviceExec& exec) {
        return perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
    });
}

void release_device_memory() {
    if (!status().available) return;
    Device& device = current_device();
    std::lock_guard<std::mutex> lock(device.mutex());
    device.release();
}

chess::Attacks device_attacks() {
    const Status s = status();
    if (!s.available) throw std::runtime_error(s.message);
    return current_device().attacks();  // built once per device, thread-safely
}

std::vector<StatsTotal> perft_stats(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                  Stats* stats) {
    Stats local;
    return on_device(
        options, call_arena_inputs(roots, depth, options, true), "statistics kernels",
        [&](DeviceExec& exec) { return perft_stats_with(exec, roots, depth, options, stats ? *stats : local); });
}

}  // namespace device
}  // namespace perftide::gpu
