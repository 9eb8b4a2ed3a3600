// A frontier engine's face: the options a ply is expanded under (memory
// budget, passes, journal of passes, work directory), the refusals of a
// budget or directory too small, and the Expander that holds one frontier
// and applies the per-ply steps to it; made by the CPU engine
// (frontier_cpu.cpp), the GPU pipeline on the host (frontier_host.cpp) or
// on the device (frontier.cu).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "frontier/ply_counts.hpp"

namespace perftide::frontier {

// Keeps the last ply's finished passes (the CPU engine), so that a run
// killed midway resumes without redoing them.
class PassLog {
   public:
    virtual ~PassLog() = default;
    // The pass count of the run being resumed; 0 when the engine chooses.
    virtual int passes() const = 0;
    // Called with the pass count before the first pass.
    virtual void start(int passes) = 0;
    // The counts of a pass finished before (ply and passes fields unset), or null.
    virtual const PlyCounts* finished(int pass) const = 0;
    virtual void record(int pass, const PlyCounts& counts) = 0;
    // What to do when a pass outgrows the budget: the pass count is not the
    // engine's to raise.
    virtual std::string when_a_pass_outgrows() const {
        return "the journal keeps its pass count: give more " + named(Setting::Memory) + ", or start a new journal";
    }
};

struct Options {
    // Working memory (bytes): past it, a ply's children are split by hash
    // into several passes. The CPU engine counts the frontiers in it, the
    // GPU pipeline only one ply's children. 0: 60% of the host's free memory
    // (base/machine.hpp) for the CPU engine, a quarter for the host
    // pipeline, half the GPU's free memory for the GPU.
    uint64_t budget_bytes = 0;
    int passes = 1;  // the CPU engine: at least this many passes per ply
    PassLog* pass_log = nullptr;  // the CPU engine: the last ply's journal (expand_last)
    // The CPU engine: a directory for a frontier too large for the budget
    // (more than half of it), kept in a file and read back by each pass.
    // Empty: every frontier in memory.
    std::string work_dir;
    // The CPU engine calls it now and then, from the thread that runs the
    // ply: parent expansions done of the ply's total (parents × passes),
    // and the children generated in the ply so far.
    std::function<void(uint64_t done, uint64_t total, uint64_t children)> progress;
    int threads = 0;  // host threads (<= 0: all)
    // Processes sharing this machine's memory (ranks on a node): the default
    // host budget is divided among them. (Each rank has a GPU of its own.)
    int memory_sharers = 1;
};

// A ply's ratio of distinct positions to children, estimated from the
// plies before it, to size its tables and passes. The ratio falls every two
// plies (one ply of each side's moves) by a factor that itself shrinks
// (start position: 0.602 0.608 | 0.458 0.466 | 0.375 0.383 at plies 3..8),
// so the estimate is the ratio two plies back times the square root of its
// last two-ply fall. Measured on the start position, plies 5..8: 2.2%, 1.7%,
// 6.3% and 6.7% above the distinct positions found (the last ply's ratio
// was 33% above, 1.9% below, 24% above and 2.0% below: a ply planned too
// small grows its tables or splits again).
class DistinctRatio {
   public:
    // This ply's ratio: from the ratios of plies 1.. (4 or more), else the
    // last one (1 before any).
    double estimate() const {
        const size_t n = ratios_.size();
        if (n >= 4) return ratios_[n - 2] * std::sqrt(ratios_[n - 2] / ratios_[n - 4]);
        return n ? ratios_.back() : 1.0;
    }
    // The ratio a ply turned out to have.
    void record(uint64_t distinct, uint64_t children) {
        ratios_.push_back(children ? double(distinct) / double(children) : 1.0);
    }

   private:
    std::vector<double> ratios_;
};

// The seed of the Zobrist keys whose keys of men and side
// (chess::Zobrist::men_key) split a ply into passes, in both engines
// (detail::pass_of): a journal of passes records it.
constexpr uint64_t PASS_SEED = 0x70617373657331ULL;

// Thrown when the budget cannot hold even the smallest pass.
// Its facts: the budget asked (MiB) and the least this ply needs (0 where
// that is not known).
struct BudgetTooSmall : LimitError {
    BudgetTooSmall(long long asked_mib, long long least_mib, const std::string& text)
        : LimitError(Setting::Memory, asked_mib, least_mib, text) {}
};

// Thrown when the work directory cannot take a frontier (too little space,
// no file can be made or sized there): the message names the directory,
// what failed, and the space needed and free. It is about this machine's
// disk, so under a launcher each rank reports its own.
struct WorkDirUnusable : InputError {
    using InputError::InputError;
};

// Holds one frontier (in device memory for the GPU engine) and applies the
// per-ply steps to it.
class Expander {
   public:
    virtual ~Expander() = default;
    // Replaces the frontier held (positions canonical, each at most once)
    // piece by piece: begin_load with the number of positions, then append
    // until all are given. An engine may keep the frontier past host memory
    // (the CPU engine's work directory).
    virtual void begin_load(uint64_t total) = 0;
    virtual void append(const Frontier& piece) = 0;
    // The same in one piece.
    void load(const Frontier& f) {
        begin_load(f.positions.size());
        append(f);
    }
    // Moves the frontier held out into `f` (host memory), leaving none.
    virtual void take(Frontier& f) = 0;
    // Replaces the frontier with its children, each distinct position once
    // with its multiplicities summed; returns the passes it took (Options).
    virtual int expand() = 0;
    // The frontier's counts, as ply `ply` expanded in `passes` passes.
    virtual PlyCounts classify(int ply, int passes) const = 0;
    // Expands and classifies the last ply, keeping none of it (the frontier
    // held is then empty): an engine may classify each pass and drop it.
    virtual PlyCounts expand_last(int ply) {
        const int passes = expand();
        return classify(ply, passes);
    }
};

// The CPU engine (threads over packed positions and hash tables).
std::unique_ptr<Expander> make_cpu_expander(const Options& o);
// The GPU pipeline's algorithm on the host (Thrust's OpenMP or C++ system).
std::unique_ptr<Expander> make_host_pipeline_expander(const Options& o);
// The GPU engine; throws std::runtime_error when no device is usable.
std::unique_ptr<Expander> make_gpu_expander(const Options& o);
// (A front end asks its opened Backend for the engine: Backend::make_expander.)

}  // namespace perftide::frontier
