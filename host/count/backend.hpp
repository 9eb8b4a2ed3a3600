// Backend choice for perft: cpu, gpu, or auto (the GPU when a CUDA device is
// usable, else the CPU). Every backend returns the same PerftResult.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.hpp"
#include "chess/stats.hpp"
#include "count/perft_result.hpp"

namespace perftide {

class Progress;

enum class Backend { Cpu, Gpu, Auto };

// The one spelling of a backend, shared by the CLI, UCI and the Python
// module: "cpu", "gpu", "auto" (any case); nothing for another word.
std::optional<Backend> parse_backend(std::string_view name);
const char* to_string(Backend backend);
// The message for a word that is no backend.
std::string not_a_backend(std::string_view name);

// The most threads any command takes (--threads, UCI Threads, threads=).
constexpr int MAX_THREADS = 1024;

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
// Statistics rows of plies 1..depth below root in one plain pass (no table,
// no work units) on the chosen backend; the CPU draws `progress`.
std::vector<chess::StatsTotal> perft_stats_rows(const chess::Position& root, int depth, Backend backend, int threads,
                                                Progress* progress = nullptr);

}  // namespace perftide
