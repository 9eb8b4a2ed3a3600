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
#include "deep/journal.hpp"
#include "deep/work_units.hpp"

namespace gperft {

class UnitBook {
   public:
    // Opens the journal when `journal` is not empty (throws JournalError)
    // and takes its finished units.
    UnitBook(const chess::Position& root, int depth, const WorkUnits& w, uint64_t zobrist_seed,
             const std::string& journal);

    // Units still to count, in index order.
    const std::vector<uint32_t>& todo() const { return todo_; }
    size_t resumed() const { return resumed_; }
    size_t done() const { return done_; }
    size_t total() const { return counts_.size(); }
    bool complete() const { return done_ == counts_.size(); }
    // Nodes (count x multiplicity) of the units recorded by this run.
    chess::u128 nodes() const { return nodes_; }
    const std::string& journal_path() const { return journal_path_; }

    // Stores finished units and appends them to the journal (fsync'd).
    void record(const std::vector<uint32_t>& units, const std::vector<chess::u128>& counts);

    // Every unit's count; throws std::logic_error unless complete().
    const std::vector<chess::u128>& counts() const;

   private:
    const WorkUnits& units_;
    int remaining_;
    std::vector<uint64_t> fingerprints_;
    std::unique_ptr<Journal> journal_;
    std::string journal_path_;
    std::vector<chess::u128> counts_;
    std::vector<bool> finished_;
    std::vector<uint32_t> todo_;
    size_t resumed_ = 0, done_ = 0;
    chess::u128 nodes_ = 0;
};

}  // namespace gperft
