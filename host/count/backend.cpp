#include "count/backend.hpp"

#include <cctype>

#include "count/cpu_perft.hpp"
#include "count/cpu_stats.hpp"
#include "gpu/gpu_perft.hpp"

namespace perftide {

std::optional<Backend> parse_backend(std::string_view name) {
    std::string key(name);
    for (char& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (key == "cpu") return Backend::Cpu;
    if (key == "gpu") return Backend::Gpu;
    if (key == "auto") return Backend::Auto;
    return std::nullopt;
}

const char* to_string(Backend backend) {
    switch (backend) {
        case Backend::Cpu: return "cpu";
        case Backend::Gpu: return "gpu";
        case Backend::Auto: return "auto";
    }
    return "auto";
}

std::string not_a_backend(std::string_view name) {
    std::string text = "'";
    text += name;
    return text + "' is not a backend: use cpu, gpu or auto";
}

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

std::vector<chess::StatsTotal> perft_stats_rows(const chess::Position& root, int depth, Backend backend, int threads,
                                                Progress* progress) {
    if (resolve_backend(backend) == Backend::Cpu) return cpu_perft_stats(root, depth, threads, progress);
    return gpu::perft_stats({root}, depth);  // the same row type
}

}  // namespace perftide
