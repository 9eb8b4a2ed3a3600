#include "backend.hpp"

#include "cpu_perft.hpp"
#include "gpu_perft.hpp"

namespace gperft {

Backend resolve_backend(Backend requested) {
    if (requested == Backend::Cpu) return Backend::Cpu;
    const gpu::Status s = gpu::status();
    if (s.available) return Backend::Gpu;
    if (requested == Backend::Gpu) throw BackendUnavailable("--backend gpu: " + s.message);
    return Backend::Cpu;
}

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, Backend backend,
                                     int threads) {
    if (resolve_backend(backend) == Backend::Cpu) return cpu_perft_batch(roots, depth, threads);
    return gpu::perft_batch(roots, depth);
}

PerftResult run_perft(const chess::Position& root, int depth, Backend backend, int threads, Progress* progress) {
    if (resolve_backend(backend) == Backend::Cpu) return cpu_perft(root, depth, threads, progress);
    return divide_perft(root, depth, "gpu", [](const std::vector<chess::Position>& children, int d) {
        return gpu::perft_batch(children, d);
    });
}

}  // namespace gperft
