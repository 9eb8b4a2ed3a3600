// Backend choice for perft: cpu, gpu, or auto (the GPU when a CUDA device is
// usable, else the CPU). Every backend returns the same PerftResult.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "chess/position.hpp"
#include "perft_result.hpp"

namespace gperft {

class Progress;

enum class Backend { Cpu, Gpu, Auto };

// Thrown when --backend gpu is asked for and no device is usable.
struct BackendUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Backend resolve_backend(Backend requested);  // Auto -> Cpu or Gpu; throws BackendUnavailable
// perft(depth) of every root on the chosen backend.
std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, Backend backend,
                                     int threads);
// perft(depth) of one root with its divide; the CPU draws `progress` (the
// GPU counts in one call, too fast to need it).
PerftResult run_perft(const chess::Position& root, int depth, Backend backend, int threads,
                      Progress* progress = nullptr);

}  // namespace gperft
