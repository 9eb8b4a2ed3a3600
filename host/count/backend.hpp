// The backend that counts: the CPU, or the GPU (a CUDA device, or the host
// pipeline standing in for one). A front end parses what the user asked for
// (cpu, gpu or auto), opens the backend once with open_backend, and hands
// the object on; nothing below the front end decides the backend again.
// Every backend returns the same counts.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.hpp"
#include "chess/position.hpp"
#include "chess/stats.hpp"
#include "chess/zobrist.hpp"
#include "count/perft_result.hpp"

namespace perftide::frontier {
class Expander;
struct Options;
}  // namespace perftide::frontier

namespace perftide {

class Progress;

// What a user asks for: Auto is the GPU when a CUDA device is usable, else
// the CPU. It never travels past the front end that parsed it.
enum class BackendChoice { Cpu, Gpu, Auto };
// What counts, once opened.
enum class BackendKind { Cpu, Gpu };

// The one spelling of a backend, shared by the CLI, UCI and the Python
// module: "cpu", "gpu", "auto" (any case); nothing for another word.
std::optional<BackendChoice> parse_backend(std::string_view name);
const char* to_string(BackendChoice choice);
const char* to_string(BackendKind kind);  // "cpu" or "gpu"
// The message for a word that is no backend.
std::string not_a_backend(std::string_view name);

// The most threads any command takes (--threads, UCI Threads, threads=).
constexpr int MAX_THREADS = 1024;

// Thrown when the GPU is asked for and no device is usable.
struct BackendUnavailable : InputError {
    using InputError::InputError;
};

// How deep runs use a backend, said once for each. The GPU wants large
// subtrees a call (a launch costs milliseconds), the CPU small batches its
// threads share.
struct BackendProfile {
    int deep_threshold;      // the depth from which perft goes through work units and tables
    int unit_plies;          // plies each work unit keeps below the split
    int max_split;           // the deepest automatic split
    size_t first_batch;      // units in the first backend call (0: the floor)
    size_t floor_per_thread; // units a call never goes below, per host thread (0: one unit)
    double call_seconds;     // the duration one backend call is grown towards
    bool host_table;         // the lossless host table on by default (the CPU's own table already catches it)
};

// The profile of each kind (a distributed run sizes each rank's batches by
// the kind that rank reports).
const BackendProfile& profile_of(BackendKind kind);

// The tables one run keeps between its batches (the backend counts below them).
struct TableOptions {
    long long hash_mb = 0;  // MiB: the CPU's table, or the device's; 0: none, -1: the device's choice
    uint64_t zobrist_seed = chess::DEFAULT_ZOBRIST_SEED;
    bool stats = false;     // the table holds statistics rows
};

// Counts batches of one run below its tables; never a partial result.
class TableCounter {
   public:
    virtual ~TableCounter() = default;
    // perft(depth) of every root.
    virtual std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth) = 0;
    // The statistics tally (journal/tally.hpp) of every root at `depth`, one
    // after another; the counter must have been opened with `stats`.
    virtual std::vector<chess::u128> stats_batch(const std::vector<chess::Position>& roots, int depth) = 0;
    // The CPU table in use, MiB (0 on the GPU, whose table the device owns).
    virtual size_t cpu_table_mb() const { return 0; }
    // The device's table memory in MiB as of the last batch (0 before one, and on the CPU).
    virtual size_t device_table_mb() const { return 0; }
};

class Backend {
   public:
    virtual ~Backend() = default;
    BackendKind kind() const { return kind_; }
    const char* name() const { return to_string(kind_); }
    bool gpu() const { return kind_ == BackendKind::Gpu; }
    const BackendProfile& profile() const { return profile_of(kind_); }
    int threads() const { return threads_; }  // host threads; 0: all cores
    // What counts: "cpu", or "gpu <device name> (CUDA_VISIBLE_DEVICES=<its entry>)".
    virtual std::string device_name() const = 0;

    // Plain counts (no tables, no work units).
    virtual std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth) const = 0;
    // perft(depth) of root with its divide; the CPU draws `progress` (the GPU
    // counts in one call, too fast to need it).
    virtual PerftResult perft(const chess::Position& root, int depth, Progress* progress = nullptr) const = 0;
    // Statistics rows of plies 1..depth below root in one plain pass.
    virtual std::vector<chess::StatsTotal> stats_rows(const chess::Position& root, int depth,
                                                      Progress* progress = nullptr) const = 0;
    // A counter for one run, owning its tables (the CPU's) or the device's
    // for the run (given back when it ends).
    virtual std::unique_ptr<TableCounter> open_counter(const TableOptions& tables) const = 0;
    // The distinct-positions engine of this backend (unique), on its threads:
    // the CPU pass engine, or the frontier pipeline on the GPU.
    virtual std::unique_ptr<frontier::Expander> make_expander(const frontier::Options& o) const = 0;

   protected:
    Backend(BackendKind kind, int threads) : kind_(kind), threads_(threads) {}

   private:
    BackendKind kind_;
    int threads_;
};

// Opens the backend asked for, with `threads` host threads (0: all cores).
// Throws BackendUnavailable for Gpu where no device is usable.
std::unique_ptr<Backend> open_backend(BackendChoice choice, int threads = 0);

}  // namespace perftide
