// The ledger of a work-unit run: which units are finished and their counts,
// read back from the journal at the start and recorded (journal first) as
// batches finish. Shared by single-process deep runs and the distributed
// coordinator, so both resume, count and merge the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"
#include "deep/work_units.hpp"
#include "journal/journal.hpp"

namespace perftide {

class UnitBook {
   public:
    // Opens the journal when `journal` is not empty (throws JournalError)
    // and takes its finished units. `stats`: the units' tallies are
    // statistics rows (journal/tally.hpp).
    UnitBook(const chess::Position& root, int depth, const WorkUnits& w, uint64_t zobrist_seed,
             const std::string& journal, bool stats = false);

    // Units still to count, in index order.
    const std::vector<uint32_t>& todo() const { return todo_; }
    size_t resumed() const { return resumed_; }
    size_t done() const { return done_; }
    size_t total() const { return finished_.size(); }
    bool complete() const { return done_ == finished_.size(); }
    // Nodes (leaves x multiplicity) of the units recorded by this run.
    chess::u128 nodes() const { return nodes_; }
    bool stats() const { return stats_; }
    int remaining() const { return remaining_; }
    size_t width() const { return width_; }
    const std::string& journal_path() const { return journal_path_; }

    // Stores finished units (their tallies, width() each, one after another)
    // and appends them to the journal (fsync'd).
    void record(const std::vector<uint32_t>& units, const std::vector<chess::u128>& tallies);

    // Every unit's tally, width() each; throws std::logic_error unless complete().
    const std::vector<chess::u128>& tallies() const;
    // Every unit's leaves (its count, or its last row's nodes); likewise.
    std::vector<chess::u128> counts() const;

   private:
    const WorkUnits& units_;
    int remaining_;
    bool stats_;
    size_t width_;
    std::vector<uint64_t> fingerprints_;
    std::unique_ptr<Journal> journal_;
    std::string journal_path_;
    std::vector<chess::u128> tallies_;
    std::vector<bool> finished_;
    std::vector<uint32_t> todo_;
    size_t resumed_ = 0, done_ = 0;
    chess::u128 nodes_ = 0;
};

}  // namespace perftide
