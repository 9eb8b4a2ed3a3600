// Deep perft: the root split into work units (unique positions with
// multiplicities), the units counted in batches on the chosen backend below a
// lossless host table, each finished batch journaled, a progress bar, and
// 128-bit checked totals and divide.
#pragma once

#include <cstdint>
#include <string>

#include "backend.hpp"
#include "chess/zobrist.hpp"
#include "perft_result.hpp"

namespace gperft {

struct DeepOptions {
    Backend backend = Backend::Auto;
    int threads = 0;
    int split = -1;              // plies to the work units; -1: automatic, 0: none (one plain batch)
    long long hash_mb = -1;      // backend transposition table, MiB; -1: automatic
    long long host_hash_mb = -1; // lossless host table, MiB; -1: automatic
    uint64_t zobrist_seed = chess::DEFAULT_ZOBRIST_SEED;
    std::string journal;         // empty: no journal
    bool progress = false;       // draw the progress bar (on a terminal)
    int batch_units = 0;         // units per backend call; 0: adaptive
};

struct DeepResult {
    PerftResult perft;
    int split = 0;
    size_t units = 0;           // unique positions at the split depth
    size_t units_resumed = 0;   // of them, read back from the journal
    size_t hash_mb = 0;         // CPU table in use (MiB)
    long long device_hash_mb = 0;
    size_t host_hash_mb = 0;
    size_t host_hits = 0;       // host table hits
    uint64_t zobrist_seed = 0;
};

// The depth from which runs use work units by default on a backend
// (Auto resolved), and the split depth they use then (0 below it).
int deep_threshold(Backend resolved);
int auto_split(int depth, Backend resolved);

// Automatic table sizes in MiB: a bounded fraction of the free memory,
// grown with the depth (deeper runs meet more distinct positions).
size_t auto_hash_mb(int depth);
size_t auto_host_hash_mb(int depth);
size_t available_memory_mb();

// Throws BackendUnavailable, JournalError, std::invalid_argument (bad
// split), CountOverflow; never returns a partial count.
DeepResult run_deep_perft(const chess::Position& root, int depth, const DeepOptions& o);

}  // namespace gperft
