// Distinct positions per ply: a frontier of (position, multiplicity) pairs,
// expanded one ply at a time, equal positions merged. Two engines hold it:
// the CPU's (packed positions in hash-partitioned tables, frontier_cpu.cpp)
// and the GPU pipeline's (sort + reduce_by_key in Thrust, frontier_impl.cuh),
// whose one source also runs on the host with Thrust's OpenMP or C++ system.
// This header, plain C++ for host/ to call, is the per-ply driver: one
// process repeats the per-ply step; a distributed run adds an exchange of
// the new frontier between processes inside it (host/mpi/dist_unique). The
// engines' face is expander.hpp, a ply's counts ply_counts.hpp.
#pragma once

#include <exception>
#include <functional>
#include <vector>

#include "chess/position.hpp"
#include "frontier/expander.hpp"
#include "frontier/ply_counts.hpp"

namespace perftide::frontier {

// What a run split over several processes adds to each ply. Every call is
// collective: each process makes it, at the same point of the run.
class Exchange {
   public:
    virtual ~Exchange() = default;
    // After each process's own work at `ply`: when it failed on any process
    // (`failure` is this one's, or null), throws on every process.
    virtual void agree(int ply, std::exception_ptr failure) = 0;
    // Sends each position of `part` to the process that owns it; on return
    // `part` holds this process's positions, each once, with the
    // multiplicities of every process summed.
    virtual void exchange(Frontier& part) = 0;
    // `mine` summed over the processes (passes: the most any needed).
    virtual PlyCounts sum(const PlyCounts& mine) = 0;
};

// The ply-0 frontier: the canonical root, reached by one path.
Frontier root_frontier(const chess::Position& root);

// Distinct positions after each ply 0..depth: the per-ply step. `start`
// is this process's part of ply 0 (root_frontier, or nothing on the other
// processes of a distributed run); `exchange` is null for a single process.
// `final_ply` receives this process's part of the last ply. `observe` is
// shown this process's part of every ply (0..depth, in order) once it is
// classified, on every process at the same point (it may be collective):
// the last ply is then kept too.
using PlyObserver = std::function<void(int ply, const Frontier& positions)>;
std::vector<PlyCounts> run_plies(Expander& expander, const Frontier& start, int depth, Exchange* exchange,
                                 Frontier* final_ply, const PlyObserver& observe = {});

// Distinct positions after each ply 0..depth from root, in one process on
// the CPU engine.
std::vector<PlyCounts> unique_cpu(const chess::Position& root, int depth, const Options& o, Frontier* final_ply);

}  // namespace perftide::frontier
