// Distributed deep perft. Rank 0 builds the work units, reads the journal,
// and hands the units out largest first in small batches; every rank counts
// with its own backend (its GPU, else its CPU) below its own tables and
// sends the counts back; rank 0 records them (journal first), merges them in
// 128 bits and alone prints the result. Rank 0 also counts, on a thread of
// its own, so a job of K ranks uses K GPUs.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "deep/deep_perft.hpp"
#include "mpi/session.hpp"

namespace perftide::dist {

struct DistResult {
    DeepResult deep;
    int ranks = 1;
    std::vector<size_t> units_per_rank;  // units each rank counted in this run
    std::vector<std::string> devices;    // what each rank counted on (Backend::device_name)
};

// A distributed run that stopped without a total: the message names the
// rank that failed and what to do next; `status` is the exit status.
struct DistributedFailure : std::runtime_error {
    DistributedFailure(const std::string& what, int status) : std::runtime_error(what), status(status) {}
    int status;
};

// What each rank opens (its own GPU, else its CPU, with its own threads).
struct RankBackend {
    BackendChoice choice = BackendChoice::Auto;
    int threads = 0;  // 0: rank_threads' choice
};

// Rank 0. `make_root` gives the root position (its exceptions come out of
// here after the other ranks have been dismissed). Throws what
// run_deep_perft throws, and DistributedFailure.
DistResult coordinate_perft(const Session& s, const std::function<chess::Position()>& make_root, int depth,
                            const RankBackend& asked, DeepOptions o);

// Every other rank: counts what rank 0 sends until it says stop. Returns
// this process's exit status (0, or the status of its own failure, which
// rank 0 reports).
int serve_perft(const Session& s, int depth, const RankBackend& asked, DeepOptions o);

// The options as one rank applies them: automatic table sizes from its
// share of the node's free memory.
DeepOptions rank_options(const Session& s, DeepOptions o);

// The backend one rank counts on, with rank_threads of the threads asked.
std::unique_ptr<Backend> open_rank_backend(const Session& s, const RankBackend& asked);

// The CPU threads of one rank: `threads` when given (> 0), else the cores
// it may run on (its CPU affinity), at most its share of the node's cores.
int rank_threads(const Session& s, int threads);

}  // namespace perftide::dist
