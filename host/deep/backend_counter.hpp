// The backend counter behind deep runs: perft of a batch of positions on the
// chosen backend, with the options the backends take (table size, Zobrist
// seed) and the state that must outlive one batch (the CPU table).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "count/backend.hpp"
#include "chess/zobrist.hpp"
#include "deep/stats_tt.hpp"
#include "deep/tt.hpp"
#include "gpu/gpu_perft.hpp"

namespace perftide {

struct CounterOptions {
    Backend backend = Backend::Auto;
    int threads = 0;        // CPU threads (also the host side of the GPU backend); 0: all
    long long hash_mb = 0;  // transposition table, MiB: the CPU's, or the device's; 0: none, -1: backend's choice
    uint64_t zobrist_seed = chess::DEFAULT_ZOBRIST_SEED;
    bool stats = false;     // perft --stats: the CPU table holds statistics rows
};

class BackendCounter {
   public:
    // Resolves the backend (throws BackendUnavailable) and sets up its table.
    explicit BackendCounter(const CounterOptions& o);
    ~BackendCounter();
    BackendCounter(const BackendCounter&) = delete;
    BackendCounter& operator=(const BackendCounter&) = delete;

    // perft(depth) of every root; never a partial result.
    std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth);
    // The statistics tally (journal/tally.hpp) of every root at `depth`, one
    // after another; the counter must have been made with `stats`.
    std::vector<chess::u128> stats_batch(const std::vector<chess::Position>& roots, int depth);

    Backend backend() const { return backend_; }
    const char* backend_name() const { return to_string(backend_); }
    // What counts: "cpu", or "gpu <device name> (CUDA_VISIBLE_DEVICES=<its entry>)".
    std::string device_name() const;
    // The table size in MiB actually in use on the CPU (0 on the GPU backend,
    // whose table the device owns).
    size_t cpu_table_mb() const {
        return table_ ? table_->bytes() >> 20 : stats_table_ ? stats_table_->bytes() >> 20 : 0;
    }
    // The device's table memory in MiB as of the last batch (0 before one,
    // and on the CPU backend).
    size_t device_table_mb() const { return device_table_bytes_ >> 20; }

   private:
    gpu::Options device_options() const;

    CounterOptions options_;
    Backend backend_;
    std::unique_ptr<chess::ZobristData> keys_;
    std::unique_ptr<PerftTable> table_;
    std::unique_ptr<StatsTable> stats_table_;
    size_t device_table_bytes_ = 0;
};

}  // namespace perftide
