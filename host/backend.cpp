#include "backend.hpp"

#include <chrono>

#include "chess/movegen.hpp"
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

PerftResult run_perft(const chess::Position& root, int depth, Backend backend, int threads) {
    const Backend b = resolve_backend(backend);
    if (b == Backend::Cpu) return cpu_perft(root, depth, threads);
    const auto start = std::chrono::steady_clock::now();
    PerftResult r;
    r.backend = "gpu";
    if (depth <= 0) {
        r.nodes = 1;
        return r;
    }
    chess::MoveList roots;
    chess::generate_moves(root, chess::host_attacks(), roots);
    std::vector<chess::Position> children;
    for (chess::Move m : roots) children.push_back(chess::apply_move(root, m));
    const auto counts = gpu::perft_batch(children, depth - 1);
    for (int i = 0; i < roots.size; ++i) {
        r.divide.emplace_back(roots.moves[i], counts[i]);
        r.nodes += counts[i];
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace gperft
