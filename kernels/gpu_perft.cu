// A first GPU backend: the host expands each root by one ply, and each
// device thread counts one child with the shared recursive perft. The
// breadth-first engine replaces this.
#include <cuda_runtime.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "chess/perft.hpp"
#include "gpu_perft.hpp"

namespace gperft::gpu {
namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

struct DeviceTables {
    chess::AttackData* data = nullptr;
    chess::Attacks view() const { return chess::Attacks{data}; }
};

// The one device copy of the lookup tables, uploaded on first use.
const DeviceTables& device_tables() {
    static DeviceTables t;
    static std::once_flag once;
    std::call_once(once, [] {
        auto host = chess::build_attack_data();
        check(cudaMalloc(&t.data, sizeof(chess::AttackData)), "cudaMalloc(tables)");
        check(cudaMemcpy(t.data, host.get(), sizeof(chess::AttackData), cudaMemcpyHostToDevice), "cudaMemcpy(tables)");
    });
    return t;
}

__global__ void perft_kernel(const chess::Position* positions, unsigned long long* counts, int n, int depth,
                             chess::Attacks at) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) counts[i] = chess::perft(positions[i], at, depth);
}

}  // namespace

Status status() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || (e == cudaSuccess && n == 0))
        return {false, "no CUDA device: " + std::string(e == cudaSuccess ? "none found" : cudaGetErrorString(e))};
    if (e != cudaSuccess) return {false, std::string("CUDA unusable: ") + cudaGetErrorString(e)};
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return {false, "CUDA device 0 cannot be queried"};
    return {true, prop.name};
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth) {
    const Status s = status();
    if (!s.available) throw std::runtime_error(s.message);
    std::vector<chess::u128> out(roots.size(), 1);
    if (depth == 0 || roots.empty()) return out;
    // One ply on the host so that threads get smaller, more numerous trees.
    const chess::Attacks host = chess::host_attacks();
    std::vector<chess::Position> items;
    std::vector<size_t> owner;
    for (size_t i = 0; i < roots.size(); ++i) {
        out[i] = 0;
        chess::MoveList list;
        chess::generate_moves(roots[i], host, list);
        if (depth == 1) {
            out[i] = list.size;
            continue;
        }
        for (chess::Move m : list) items.push_back(chess::apply_move(roots[i], m)), owner.push_back(i);
    }
    if (items.empty()) return out;
    const int n = int(items.size());
    chess::Position* d_pos = nullptr;
    unsigned long long* d_counts = nullptr;
    check(cudaMalloc(&d_pos, sizeof(chess::Position) * n), "cudaMalloc(positions)");
    std::unique_ptr<chess::Position, decltype(&cudaFree)> pos_guard(d_pos, &cudaFree);
    check(cudaMalloc(&d_counts, sizeof(unsigned long long) * n), "cudaMalloc(counts)");
    std::unique_ptr<unsigned long long, decltype(&cudaFree)> count_guard(d_counts, &cudaFree);
    check(cudaMemcpy(d_pos, items.data(), sizeof(chess::Position) * n, cudaMemcpyHostToDevice), "cudaMemcpy(positions)");
    perft_kernel<<<(n + 127) / 128, 128>>>(d_pos, d_counts, n, depth - 1, device_tables().view());
    check(cudaGetLastError(), "perft_kernel launch");
    check(cudaDeviceSynchronize(), "perft_kernel");
    std::vector<unsigned long long> counts(n);
    check(cudaMemcpy(counts.data(), d_counts, sizeof(unsigned long long) * n, cudaMemcpyDeviceToHost), "cudaMemcpy(counts)");
    for (int k = 0; k < n; ++k) out[owner[k]] += counts[k];
    return out;
}

}  // namespace gperft::gpu
