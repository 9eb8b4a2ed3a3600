// The journal of a long `perftide unique` run: the last ply's finished passes,
// so that a run killed midway and started again with the same arguments
// redoes only the passes it had not finished (the plies before the last are
// computed again: they cost a small part of the last). It is written in the
// deep-perft journal's format (journal/journal.hpp), which brings the checksums,
// the lock and the torn-tail rule with it: the header's position is
// "unique <FEN>" (with "chess960" before the FEN in that mode), its split is
// depth - 1, its units are passes × FIELDS and its seed is the seed of the
// keys that choose each child's pass (frontier::PASS_SEED; a journal whose
// passes split the children otherwise is refused); a pass is FIELDS unit records, one per
// counter, written in one go.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "frontier/frontier.hpp"
#include "journal/journal.hpp"

namespace perftide {

class UniqueJournal : public frontier::PassLog {
   public:
    // Opens and checks an existing journal at once (so that a wrong file is
    // refused before the run), or notes the path for start() to create.
    // Under a launcher each rank keeps its own (`rank` of `ranks`, named in
    // the header); a journal of another rank count is refused as such.
    UniqueJournal(std::string path, const std::string& fen, bool chess960, int depth, int rank = 0, int ranks = 1);

    int passes() const override { return passes_; }
    void start(int passes) override;
    const frontier::PlyCounts* finished(int pass) const override;
    void record(int pass, const frontier::PlyCounts& counts) override;

    // Passes the journal holds finished.
    size_t finished_count() const { return done_.size(); }
    const std::string& path() const { return path_; }

   private:
    void open(int passes);
    void check_ranks(const std::string& header) const;  // throws JournalError

    std::string path_, position_;
    int depth_;
    int rank_, ranks_;
    int passes_ = 0;
    std::unique_ptr<Journal> journal_;
    std::map<int, frontier::PlyCounts> done_;
};

}  // namespace perftide
