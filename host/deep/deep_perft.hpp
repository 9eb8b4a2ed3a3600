// Deep perft: the root split into work units (unique positions with
// multiplicities), the units counted in batches on the chosen backend below a
// lossless host table, each finished batch journaled, a progress bar, and
// 128-bit checked totals and divide.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "chess/stats.hpp"
#include "chess/zobrist.hpp"
#include "count/backend.hpp"
#include "count/perft_result.hpp"

namespace perftide {

class UnitBook;
struct WorkUnits;

// The largest table a run is given (--hash, --host-hash, UCI's Hash), MiB: 4 TiB.
constexpr long long MAX_HASH_MB = 1LL << 22;

// How a deep run uses its backend (opened by the front end, which also
// gives it its threads).
struct DeepOptions {
    int split = -1;              // plies to the work units; -1: automatic, 0: none (one plain batch)
    long long hash_mb = -1;      // backend transposition table, MiB; -1: automatic
    long long host_hash_mb = -1; // lossless host table, MiB; -1: automatic
    uint64_t zobrist_seed = chess::DEFAULT_ZOBRIST_SEED;
    std::string journal;         // empty: no journal
    bool progress = false;       // draw the progress bar (on a terminal)
    int batch_units = 0;         // units per backend call; 0: adaptive
    int memory_sharers = 1;      // processes sharing this machine's free memory (ranks on a node)
    bool hash_force = false;     // keep an explicit --hash even where the run cannot fill it
    bool stats = false;          // perft --stats: statistics rows of every ply (journal/tally.hpp)
    // What the run notes (a setting it changed), its text naming settings as
    // base/settings.hpp says; empty: "perftide: note: ..." on stderr.
    std::function<void(const std::string&)> note;
};

struct DeepResult {
    PerftResult perft;
    int split = 0;
    size_t units = 0;           // unique positions at the split depth
    size_t units_resumed = 0;   // of them, read back from the journal
    chess::u128 nodes_counted = 0;  // of the total, the nodes this run counted (resumed units left out)
    size_t hash_mb = 0;         // CPU table in use (MiB)
    long long device_hash_mb = 0;
    size_t host_hash_mb = 0;
    size_t host_hits = 0;       // host table hits
    uint64_t zobrist_seed = 0;
    std::vector<chess::BasicPerftStats<chess::u128>> stats;  // with DeepOptions::stats: a row per ply, 1..depth
};

// The split depth runs use by default on a backend: 0 below its deep
// threshold, else enough plies per unit to amortise a backend call.
int auto_split(int depth, const BackendProfile& profile);

// Automatic table sizes in MiB: a bounded fraction of the free memory
// (split among `sharers` processes), grown with the depth (deeper runs
// meet more distinct positions); a statistics table is larger.
size_t auto_hash_mb(int depth, int sharers = 1, bool stats = false);
size_t auto_host_hash_mb(int depth, int sharers = 1);

// What a process needs to count units on its backend: the tables of its
// counter (sizes chosen) and its lossless host table size. Each rank of a
// distributed run plans its own, for its own GPU and memory.
struct CounterPlan {
    TableOptions tables;
    size_t host_hash_mb = 0;
};
// Throws std::invalid_argument for a table larger than the free memory.
CounterPlan plan_counter(const Backend& backend, int depth, const DeepOptions& o);

// Checks the whole run against the free memory (the lower of MemAvailable
// and the cgroup limit): tables plus the positions merged into work units;
// throws std::invalid_argument with the numbers when it does not fit. An
// explicit CPU --hash larger than the run can fill is cut to what it can
// (unless hash_force), with a note on stderr.
void fit_run_memory(const chess::Position& root, int depth, int split, const Backend& backend, const DeepOptions& o,
                    CounterPlan& plan);
// Positions `plies` below root, an upper estimate (exact to 3 plies).
double estimated_perft(const chess::Position& root, int plies);

// The deepest split, up to the automatic one, whose work units (the
// positions at the split while they are merged, UNIT_MERGE_BYTES each,
// estimated_perft of them) fit in `mb` MiB: 0 when not even one ply does.
// For a run whose every merge a memory size bounds (UCI's Hash).
constexpr double UNIT_MERGE_BYTES = 600.0;
int split_within(const chess::Position& root, int depth, const BackendProfile& profile, size_t mb);

// The split depth: --split, else the automatic one (at least 1 when there
// is a journal, which records units). Throws std::invalid_argument when it
// is deeper than `depth`.
int plan_split(int depth, const BackendProfile& profile, const DeepOptions& o);

// Fills the unit fields and the perft total and divide of `d` from every
// unit's count (128-bit, checked); for a statistics run also its rows: the
// plies down to the split counted from root, the rest from the units.
void fill_unit_result(DeepResult& d, const chess::Position& root, const WorkUnits& w, const UnitBook& book,
                      size_t host_hits);

// Throws JournalError, LimitError (a split past the depth), CountOverflow;
// never returns a partial count.
DeepResult run_deep_perft(const Backend& backend, const chess::Position& root, int depth, const DeepOptions& o);

// Whether a count goes through the deep engine (tables, work units): from
// the backend's deep threshold, or whenever the caller asked for something
// only the deep engine has (a table size, a split, a journal). The one rule
// every front end follows.
bool counts_deep(const Backend& backend, int depth, bool deep_asked = false);

// The one way a front end counts perft(depth) of root with its divide, as
// `perft` does by default: plainly below the backend's deep threshold (drawing
// `progress`), through the deep engine from it (tables, work units, o's
// table sizes, and o.progress for its own bar). Used by perft (and perft
// --file), suite, compare, perftree, uci and the Python module, so that one
// count costs the same behind each. Throws as run_deep_perft does, and
// Stopped when a stop is requested (run_stop.hpp).
PerftResult count_perft(const Backend& backend, const chess::Position& root, int depth, const DeepOptions& o,
                        Progress* progress = nullptr);

}  // namespace perftide
