// Counting work units on a backend, shared by single-process deep runs and
// distributed workers: a batch of units goes to the backend in one call,
// below the lossless host table; and the batch size that keeps one call near
// a target duration.
#pragma once

#include <cstddef>
#include <vector>

#include "count/backend.hpp"
#include "deep/host_table.hpp"

namespace perftide {

class UnitCounter {
   public:
    // `stats`: units are counted as statistics tallies (journal/tally.hpp), by
    // the backend counter alone (the host table holds plain counts).
    UnitCounter(TableCounter& counter, HostTable& table, bool stats = false)
        : backend_(counter), table_(table), stats_(stats) {}

    // The tally of every unit at `remaining`, one after another: perft
    // (one count a unit) or statistics rows. For perft with the host table
    // on (and at least two plies left), each unit's children are looked up
    // as exact positions; the batch's misses are merged, counted in one
    // backend call and remembered for later batches.
    std::vector<chess::u128> count(const std::vector<chess::Position>& units, int remaining);

   private:
    TableCounter& backend_;
    HostTable& table_;
    bool stats_;
};

// Units per backend call: small at first (the journal and the progress bar
// hear from the run early), then grown towards the backend's target duration
// per call (its profile), at most doubling each time. On the CPU a batch's
// units are shared among the threads, so a batch never holds fewer than a
// few units a thread, however long a unit takes.
class BatchSizer {
   public:
    BatchSizer(int fixed, const BackendProfile& profile, int threads);
    size_t size() const { return size_; }
    void observe(size_t units, double seconds);

   private:
    int fixed_;
    size_t floor_;
    size_t size_;
    double target_;
};

}  // namespace perftide
