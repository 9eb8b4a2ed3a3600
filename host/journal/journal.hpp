// The journal of a resumable deep run: a header naming the run, then one
// line per finished work unit, appended with write + fsync. Restarted with
// the same arguments, a run reads it back and skips those units. A torn last
// line (no newline: the write was cut short) is discarded; anything else that
// does not check out is refused with JournalError, never mixed in.
//
// Text format, one record per line, each ending in " *" and the FNV-1a 32
// checksum (8 hex digits) of what precedes it:
//   perftide-journal <version> depth <D> split <S> seed <hex> units <N> [stats] fen <FEN> *xxxxxxxx
//   unit <index> <fingerprint hex> <remaining depth> <count>... *xxxxxxxx
// A unit's record holds its tally (journal/tally.hpp): one count for perft, the
// statistics rows of every remaining ply for perft --stats (whose header says
// `stats`, so that the two kinds of journal refuse each other).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.hpp"
#include "chess/count.hpp"

namespace perftide {

constexpr int JOURNAL_VERSION = 1;

struct JournalError : InputError {
    using InputError::InputError;
};

// What identifies a run; the backend, threads and table sizes are left out
// on purpose: they do not change any unit's count.
struct JournalHeader {
    int version = JOURNAL_VERSION;
    int depth = 0;
    int split = 0;
    uint64_t seed = 0;
    uint64_t units = 0;
    bool stats = false;  // perft --stats: each unit's record holds rows
    std::string fen;
};

struct JournalUnit {
    uint32_t index = 0;
    uint64_t fingerprint = 0;
    int remaining = 0;
    std::vector<chess::u128> tally;  // tally_width(stats, remaining) counts
};

// Line text with its checksum and newline.
std::string journal_line(std::string_view payload);
std::string header_payload(const JournalHeader& h);
std::string unit_payload(const JournalUnit& u);

// The outcome of reading journal text: the finished units (by index) and how
// many leading bytes are intact (everything after them is a torn tail).
struct JournalContents {
    bool has_header = false;
    std::map<uint32_t, std::vector<chess::u128>> done;
    size_t intact_bytes = 0;
};

// Checks `text` against the run (`expect`, and each unit's fingerprint);
// throws JournalError naming the file, line and problem.
JournalContents read_journal(std::string_view text, const JournalHeader& expect,
                             const std::vector<uint64_t>& fingerprints, const std::string& name);

class Journal {
   public:
    // Opens (creating it when absent) and locks the journal file, reads back
    // the finished units and cuts off a torn tail.
    Journal(const std::string& path, const JournalHeader& expect, const std::vector<uint64_t>& fingerprints);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    const std::map<uint32_t, std::vector<chess::u128>>& done() const { return done_; }
    // Appends the units in one write and makes them durable (fsync).
    void append(const std::vector<JournalUnit>& units);

   private:
    void write_all(const std::string& text);

    std::string path_;
    int fd_ = -1;
    std::map<uint32_t, std::vector<chess::u128>> done_;
};

}  // namespace perftide
