// Which work units go to which rank, and when: the coordinator's schedule,
// kept apart from MPI so it can be tested on its own.
//
// Units go out largest first, so the long ones start early and the short
// ones fill the gaps at the end. A unit's size is estimated by perft(2) of
// its position (perft(1) when one ply is left): the number of positions two
// plies down tracks the subtree far better than the unit's multiplicity,
// which says how often the count is used, not how long it takes. Each rank
// gets batches sized for its own speed (the single-process BatchSizer,
// per rank), never more than its share of what is left, so the last batches
// are small and the ranks finish together.
#pragma once

#include <cstdint>
#include <vector>

#include "deep/unit_counter.hpp"
#include "deep/work_units.hpp"

namespace perftide::dist {

// `todo` sorted by estimated subtree size, largest first (ties: lower
// index first), for units with `remaining` plies left.
std::vector<uint32_t> largest_first(const WorkUnits& w, const std::vector<uint32_t>& todo, int remaining);

class Dispatcher {
   public:
    // `order`: the units to hand out, in order; `fixed_batch` > 0 fixes the
    // batch size (--batch-units).
    Dispatcher(std::vector<uint32_t> order, int ranks, int fixed_batch);

    // Sets how `rank` counts (its first batch size depends on it).
    void set_rank(int rank, BackendKind backend, int threads);
    // The next batch for `rank`; empty once every unit is handed out.
    std::vector<uint32_t> next(int rank);
    // `rank` finished a batch of `units` units in `seconds`.
    void finished(int rank, size_t units, double seconds);

    size_t left() const { return order_.size() - next_; }
    const std::vector<size_t>& units_per_rank() const { return done_; }

   private:
    std::vector<uint32_t> order_;
    size_t next_ = 0;
    int fixed_;
    std::vector<BatchSizer> sizers_;
    std::vector<size_t> done_;
};

}  // namespace perftide::dist
